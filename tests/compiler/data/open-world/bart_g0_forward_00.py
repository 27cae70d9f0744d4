import thunder
import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(l_labels_, shifted_input_ids):
  # l_labels_: "cuda:0 i64[2, 16]"
  # shifted_input_ids: "cuda:0 i64[2, 16]"

  # <eval_with_key>.165:5: 	    getitem = l_labels_[(slice(None, None, None), slice(None, -1, None))];  l_labels_ = None
  getitem = ltorch.getitem(l_labels_, (slice(None,None,None), slice(None,-1,None)))  # getitem: "cuda:0 i64[2, 15]"
    # getitem = prims.slice_prim(l_labels_, [0, 0], [2, 15], [1, 1])  # getitem: "cuda:0 i64[2, 15]"

  # <eval_with_key>.165:6: 	    clone = getitem.clone();  getitem = None
  clone = ltorch.clone(getitem, memory_format=_torch_memory_format_4)  # clone: "cuda:0 i64[2, 15]"
    # clone = prims.clone(getitem)  # clone: "cuda:0 i64[2, 15]"

  # <eval_with_key>.165:7: 	    shifted_input_ids[(slice(None, None, None), slice(1, None, None))] = clone;  setitem = shifted_input_ids;  clone = setitem = None
  t3 = ltorch.setitem_(shifted_input_ids, (slice(None,None,None), slice(1,None,None)), clone)  # t3: "cuda:0 i64[2, 16]"
    # t2 = ltorch.setitem(shifted_input_ids, (slice(None,None,None), slice(1,None,None)), clone)  # t2: "cuda:0 i64[2, 16]"
      # t2 = prims.copy_with_setitem(shifted_input_ids, (slice(None,None,None), slice(1,None,None)), clone)  # t2: "cuda:0 i64[2, 16]"
    # t3 = prims.copy_(t2, shifted_input_ids, grad_enabled=True)  # t3: "cuda:0 i64[2, 16]"

  # <eval_with_key>.165:8: 	    shifted_input_ids[(slice(None, None, None), 0)] = 2;  setitem_1 = shifted_input_ids;  setitem_1 = None
  t5 = ltorch.setitem_(shifted_input_ids, (slice(None,None,None), 0), 2)  # t5: "cuda:0 i64[2, 16]"
    # t4 = ltorch.setitem(shifted_input_ids, (slice(None,None,None), 0), 2)  # t4: "cuda:0 i64[2, 16]"
      # t4 = prims.copy_with_setitem(shifted_input_ids, (slice(None,None,None), 0), 2)  # t4: "cuda:0 i64[2, 16]"
    # t5 = prims.copy_(t4, shifted_input_ids, grad_enabled=True)  # t5: "cuda:0 i64[2, 16]"

  # <eval_with_key>.165:9: 	    eq = shifted_input_ids.__eq__(-100)
  eq = ltorch.eq(shifted_input_ids, -100)  # eq: "cuda:0 b8[2, 16]"
    # eq = prims.eq(shifted_input_ids, -100)  # eq: "cuda:0 b8[2, 16]"

  # <eval_with_key>.165:10: 	    masked_fill_ = shifted_input_ids.masked_fill_(eq, 1);  shifted_input_ids = eq = masked_fill_ = None
  masked_fill_ = ltorch.masked_fill_(shifted_input_ids, eq, 1)  # masked_fill_: "cuda:0 i64[2, 16]"
    # t7 = ltorch.masked_fill(shifted_input_ids, eq, 1)  # t7: "cuda:0 i64[2, 16]"
      # t7 = ltorch.where(eq, 1, shifted_input_ids)  # t7: "cuda:0 i64[2, 16]"
        # t7 = prims.where(eq, 1, shifted_input_ids)  # t7: "cuda:0 i64[2, 16]"
    # masked_fill_ = prims.copy_(t7, shifted_input_ids, grad_enabled=True)  # masked_fill_: "cuda:0 i64[2, 16]"
  return ()
