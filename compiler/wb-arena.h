/* wb-arena.h — a bump allocator that owns all memory of one trace (private to compiler/)
 * SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WbArena WbArena;

WbArena *wb_arena_new (void);
void     wb_arena_free (WbArena *arena);
/* wb_arena_alloc: @size zeroed bytes, 8-byte aligned, freed with the arena. */
gpointer wb_arena_alloc (WbArena *arena, gsize size);
/* wb_arena_strndup: a NUL-terminated copy of @len bytes of @s. */
char *wb_arena_strndup (WbArena *arena, const char *s, gsize len);
char *wb_arena_strdup (WbArena *arena, const char *s);
/* wb_arena_memdup: a copy of @size bytes. */
gpointer wb_arena_memdup (WbArena *arena, gconstpointer mem, gsize size);
/* wb_arena_get_size: bytes reserved from the system so far. */
gsize wb_arena_get_size (WbArena *arena);

#define wb_arena_new0(arena, Type) ((Type *) wb_arena_alloc ((arena), sizeof (Type)))
#define wb_arena_newv(arena, Type, n) ((Type *) wb_arena_alloc ((arena), sizeof (Type) * (gsize) (n)))

G_END_DECLS
