/* wb-arena.c — a bump allocator that owns all memory of one trace
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Traces are immutable and die all at once, so their nodes come from chunks that grow geometrically
 * (64 KiB up to 4 MiB) and are freed together. Large requests get a chunk of their own. */
#include "config.h"

#include "wb-arena.h"

#include <string.h>

typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk *next;
  gsize  size;
  gsize  used;
  /* data follows, 16-byte aligned */
};

#define CHUNK_HEADER ((sizeof (Chunk) + 15) & ~(gsize) 15)
#define MIN_CHUNK (64 * 1024)
#define MAX_CHUNK (4 * 1024 * 1024)

struct _WbArena
{
  Chunk *head;
  gsize  next_size;
  gsize  total;
};

WbArena *
wb_arena_new (void)
{
  WbArena *arena = g_new0 (WbArena, 1);
  arena->next_size = MIN_CHUNK;
  return arena;
}

void
wb_arena_free (WbArena *arena)
{
  Chunk *c;
  if (arena == NULL)
    return;
  c = arena->head;
  while (c != NULL)
    {
      Chunk *next = c->next;
      g_free (c);
      c = next;
    }
  g_free (arena);
}

static Chunk *
chunk_new (WbArena *arena, gsize min)
{
  gsize  size = arena->next_size;
  Chunk *c;
  if (size < min)
    size = min;
  c = g_malloc (CHUNK_HEADER + size);
  c->size = size;
  c->used = 0;
  arena->total += CHUNK_HEADER + size;
  if (arena->next_size < MAX_CHUNK)
    arena->next_size *= 2;
  return c;
}

gpointer
wb_arena_alloc (WbArena *arena, gsize size)
{
  Chunk  *c = arena->head;
  guint8 *p;
  size = (size + 7) & ~(gsize) 7;
  if (size == 0)
    size = 8;
  if (c == NULL || c->size - c->used < size)
    {
      if (size > MAX_CHUNK / 4 && c != NULL)
        {
          /* A big block of its own, behind the current chunk so that chunk stays in use. */
          Chunk *big = chunk_new (arena, size);
          big->next = c->next;
          c->next = big;
          big->used = size;
          p = (guint8 *) big + CHUNK_HEADER;
          memset (p, 0, size);
          return p;
        }
      c = chunk_new (arena, size);
      c->next = arena->head;
      arena->head = c;
    }
  p = (guint8 *) c + CHUNK_HEADER + c->used;
  c->used += size;
  memset (p, 0, size);
  return p;
}

char *
wb_arena_strndup (WbArena *arena, const char *s, gsize len)
{
  char *out = wb_arena_alloc (arena, len + 1);
  memcpy (out, s, len);
  out[len] = '\0';
  return out;
}

char *
wb_arena_strdup (WbArena *arena, const char *s)
{
  return s == NULL ? NULL : wb_arena_strndup (arena, s, strlen (s));
}

gpointer
wb_arena_memdup (WbArena *arena, gconstpointer mem, gsize size)
{
  gpointer out = wb_arena_alloc (arena, size);
  if (size > 0)
    memcpy (out, mem, size);
  return out;
}

gsize
wb_arena_get_size (WbArena *arena)
{
  return arena->total;
}
