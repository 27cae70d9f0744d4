# cases.py — the zoo's cases: real models built from code that ships in a package, small configs
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every case builds its model with random initialisation from a config (torchvision, transformers, or a
# few lines of PyTorch for the programs that exercise Thunder's own transforms): nothing is downloaded.
# A case is a CASES entry: build(device, dtype) returns (module, args), where the module's forward takes
# args and returns one tensor (the loss for training, the logits for inference), so that the recorded
# trace's outputs and the reference tensors line up one to one.
#
# Fields:
#   family      where the model comes from (torchvision, transformers, torch)
#   training    forward + backward (the loss inside the jitted module) or inference (under no_grad)
#   dtype       float32 or bfloat16 (parameters and floating inputs)
#   executors   "default" (thunder.jit's defaults) or a comma list given to thunder.jit(executors=...)
#   frontend    "jit" (thunder.jit) or "thunderfx" (torch.compile(backend=ThunderCompiler()))
#   thunder     "release" (the PyPI wheel) or "main" (the source snapshot carried as .zoo/thunder-main)
#   what        one line for tools/zoo/README.md

import functools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CASES = {}

B, T, VOCAB = 2, 32, 512  # text models: batch, sequence, vocabulary
IMG = 64  # torchvision image side


def case(name, family, what, training=True, dtype="float32", executors="default", frontend="jit",
         thunder="release"):
    def deco(build):
        CASES[name] = dict(name=name, family=family, what=what, training=training, dtype=dtype,
                           executors=executors, frontend=frontend, thunder=thunder, build=build)
        return build

    return deco


def variant(base, name, what, **changes):
    """Another case of @base's model: other mode, dtype, executors, frontend or Thunder."""
    c = dict(CASES[base])
    c.update(changes, name=name, what=what)
    CASES[name] = c


def _gen(device):
    g = torch.Generator(device="cpu")
    g.manual_seed(1234)
    return g


def _ids(device, vocab=VOCAB, shape=(B, T)):
    return torch.randint(4, vocab, shape, generator=_gen(device)).to(device)


def _image(device, dtype, shape=(B, 3, IMG, IMG)):
    return torch.randn(shape, generator=_gen(device)).to(device=device, dtype=dtype)


class Loss(nn.Module):
    """model(x) -> cross_entropy(logits, y): the loss inside the jitted module."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, y):
        return F.cross_entropy(self.model(x).float(), y)


class HFLoss(nn.Module):
    """A transformers model called with its labels; returns its loss (computed inside the model)."""

    def __init__(self, model, keys, fixed=None):
        super().__init__()
        self.model = model
        self.keys = keys
        self.fixed = dict(fixed or {})

    def forward(self, *args):
        return self.model(**dict(zip(self.keys, args)), **self.fixed).loss


class HFLogits(nn.Module):
    """A transformers model for inference: returns the logits (or the last hidden state)."""

    def __init__(self, model, keys, field="logits"):
        super().__init__()
        self.model = model
        self.keys = keys
        self.field = field

    def forward(self, *args):
        return getattr(self.model(**dict(zip(self.keys, args))), self.field)


# -- torchvision --------------------------------------------------------------------------------------

def _tv(ctor, shape=(B, 3, IMG, IMG), classes=10):
    def build(device, dtype, training):
        import torchvision

        torch.manual_seed(0)
        m = ctor(torchvision, classes)
        x = _image(device, dtype, shape)
        if training:
            y = torch.randint(0, classes, (shape[0],), generator=_gen(device)).to(device)
            return Loss(m), (x, y)
        return m, (x,)

    return build


for _name, _ctor, _what in (
    ("resnet50", lambda tv, k: tv.models.resnet50(num_classes=k), "torchvision ResNet-50 (bottlenecks, batch norm, in-place ReLU and add_)"),
    ("mobilenet_v3_small", lambda tv, k: tv.models.mobilenet_v3_small(num_classes=k), "torchvision MobileNetV3-Small (depthwise convs, hardswish, squeeze-excitation)"),
    ("efficientnet_b0", lambda tv, k: tv.models.efficientnet_b0(num_classes=k), "torchvision EfficientNet-B0 (MBConv, SiLU, stochastic depth)"),
    ("convnext_tiny", lambda tv, k: tv.models.convnext_tiny(num_classes=k), "torchvision ConvNeXt-Tiny (7x7 depthwise convs, LayerNorm2d, layer scale)"),
    ("regnet_y_400mf", lambda tv, k: tv.models.regnet_y_400mf(num_classes=k), "torchvision RegNetY-400MF (grouped convs, squeeze-excitation)"),
    ("densenet121", lambda tv, k: tv.models.densenet121(num_classes=k), "torchvision DenseNet-121 (concatenations, batch norm, avg pooling)"),
    ("vit_tiny", lambda tv, k: tv.models.VisionTransformer(image_size=IMG, patch_size=16, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128, num_classes=k), "torchvision VisionTransformer, 2 layers, hidden 64"),
    ("swin_tiny", lambda tv, k: tv.models.SwinTransformer(patch_size=[4, 4], embed_dim=32, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4], num_classes=k), "torchvision Swin Transformer, 2 stages, embed 32 (shifted windows, roll)"),
):
    case(_name, "torchvision", _what)(_tv(_ctor))

variant("resnet50", "resnet50_infer_bf16", "torchvision ResNet-50, inference, bf16", training=False, dtype="bfloat16")
variant("mobilenet_v3_small", "mobilenet_v3_small_infer", "torchvision MobileNetV3-Small, inference (batch norm with running statistics)", training=False)
case("vgg11_bn_infer", "torchvision", "torchvision VGG-11 with batch norm, inference (max pooling, adaptive average pooling)",
     training=False)(_tv(lambda tv, k: tv.models.vgg11_bn(num_classes=k), shape=(B, 3, 32, 32)))
case("r3d_18_infer", "torchvision", "torchvision R3D-18 video ResNet, inference (conv3d)",
     training=False)(_tv(lambda tv, k: tv.models.video.r3d_18(num_classes=k), shape=(1, 3, 4, 32, 32)))


# -- transformers -------------------------------------------------------------------------------------

SMALL = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, vocab_size=VOCAB,
             max_position_embeddings=128)


def _hf(model_cls, config_cls, config, inputs="lm", field="logits"):
    """inputs: lm (input_ids, labels), cls (input_ids, labels: a class), seq2seq, vision, speech, clip."""

    def build(device, dtype, training):
        import transformers

        torch.manual_seed(0)
        # no KV cache: training and one-shot inference, as users jit them (the cache is for generate())
        cfg = getattr(transformers, config_cls)(**dict({"use_cache": False}, **config))
        try:
            cfg._attn_implementation = "sdpa"
            m = getattr(transformers, model_cls)(cfg)
        except ValueError:  # a model without an SDPA attention (DeBERTa-v2): its own
            cfg._attn_implementation = "eager"
            m = getattr(transformers, model_cls)(cfg)
        ids = _ids(device)
        if inputs == "lm":
            keys, args = ["input_ids", "labels"], [ids, ids]
        elif inputs == "mlm":
            labels = ids.clone()
            labels[:, ::3] = -100
            keys, args = ["input_ids", "labels"], [ids, labels]
        elif inputs == "cls":
            keys, args = ["input_ids", "labels"], [ids, torch.tensor([0, 1], device=device)]
        elif inputs == "seq2seq":
            keys, args = ["input_ids", "labels"], [ids, _ids(device, shape=(B, T // 2))]
        elif inputs == "vision":
            keys, args = ["pixel_values", "labels"], [_image(device, dtype, (B, 3, 32, 32)), torch.tensor([0, 1], device=device)]
        elif inputs == "speech":
            feats = _image(device, dtype, (B, config["num_mel_bins"], 2 * config["max_source_positions"]))
            keys, args = ["input_features", "labels"], [feats, _ids(device, shape=(B, 8))]
        elif inputs == "clip":
            keys, args = ["input_ids", "pixel_values"], [ids, _image(device, dtype, (B, 3, 32, 32))]
        else:
            raise ValueError(inputs)
        if training:
            return HFLoss(m, keys, {"return_loss": True} if inputs == "clip" else None), tuple(args)
        keys = keys[:1] if inputs not in ("clip", "seq2seq") else keys
        if inputs == "seq2seq":
            keys = ["input_ids", "decoder_input_ids"]
        if inputs == "clip":
            return HFLogits(m, keys, "logits_per_image"), tuple(args[:2])
        return HFLogits(m, keys, field), tuple(args[: len(keys)])

    return build


def _lm(name, model_cls, config_cls, what, extra=None, **kw):
    cfg = dict(SMALL)
    cfg.update(extra or {})
    case(name, "transformers", what, **kw)(_hf(model_cls, config_cls, cfg))


_lm("gpt2", "GPT2LMHeadModel", "GPT2Config", "GPT-2 causal LM, 2 layers, hidden 64",
    extra=dict(n_embd=64, n_layer=2, n_head=4, n_positions=128))
_lm("gpt_neox", "GPTNeoXForCausalLM", "GPTNeoXConfig", "GPT-NeoX causal LM (parallel residual, partial rotary)")
_lm("llama", "LlamaForCausalLM", "LlamaConfig", "Llama causal LM, 2 layers, GQA 4/2 heads, bf16",
    extra=dict(num_key_value_heads=2), dtype="bfloat16")
_lm("mistral", "MistralForCausalLM", "MistralConfig", "Mistral causal LM (sliding window 16), bf16",
    extra=dict(num_key_value_heads=2, sliding_window=16), dtype="bfloat16")
_lm("mixtral", "MixtralForCausalLM", "MixtralConfig", "Mixtral MoE causal LM, 4 experts top-2",
    extra=dict(num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2))
_lm("qwen2", "Qwen2ForCausalLM", "Qwen2Config", "Qwen2 causal LM (q/k/v biases, GQA), bf16",
    extra=dict(num_key_value_heads=2), dtype="bfloat16")
_lm("qwen2_moe", "Qwen2MoeForCausalLM", "Qwen2MoeConfig", "Qwen2-MoE causal LM, 4 experts top-2 + shared expert",
    extra=dict(num_key_value_heads=2, num_experts=4, num_experts_per_tok=2, moe_intermediate_size=64,
               shared_expert_intermediate_size=128))
_lm("phi3", "Phi3ForCausalLM", "Phi3Config", "Phi-3 causal LM (fused qkv and gate_up projections)",
    extra=dict(num_key_value_heads=4, pad_token_id=0))
_lm("gemma", "GemmaForCausalLM", "GemmaConfig", "Gemma causal LM (GeGLU, scaled embeddings, head_dim 16)",
    extra=dict(num_key_value_heads=1, head_dim=16))
case("bert", "transformers", "BERT masked LM, 2 layers, hidden 64")(
    _hf("BertForMaskedLM", "BertConfig", dict(SMALL), inputs="mlm"))
case("roberta", "transformers", "RoBERTa sequence classification")(
    _hf("RobertaForSequenceClassification", "RobertaConfig", dict(SMALL, pad_token_id=1), inputs="cls"))
case("distilbert", "transformers", "DistilBERT sequence classification")(
    _hf("DistilBertForSequenceClassification", "DistilBertConfig",
        dict(dim=64, n_layers=2, n_heads=4, hidden_dim=128, vocab_size=VOCAB, max_position_embeddings=128), inputs="cls"))
case("deberta_v2", "transformers", "DeBERTa-v2 masked LM (disentangled relative attention)")(
    _hf("DebertaV2ForMaskedLM", "DebertaV2Config", dict(SMALL, relative_attention=True, position_buckets=16,
                                                         pos_att_type=["p2c", "c2p"]), inputs="mlm"))
case("t5", "transformers", "T5 encoder-decoder, conditional generation with labels")(
    _hf("T5ForConditionalGeneration", "T5Config",
        dict(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_decoder_layers=2, num_heads=4, vocab_size=VOCAB,
             decoder_start_token_id=0, pad_token_id=0), inputs="seq2seq"))
case("bart", "transformers", "BART encoder-decoder, conditional generation with labels")(
    _hf("BartForConditionalGeneration", "BartConfig",
        dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
             encoder_ffn_dim=128, decoder_ffn_dim=128, vocab_size=VOCAB, max_position_embeddings=128), inputs="seq2seq"))
case("whisper", "transformers", "Whisper speech-to-text (conv1d front end), labels of 8 tokens")(
    _hf("WhisperForConditionalGeneration", "WhisperConfig",
        dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
             encoder_ffn_dim=128, decoder_ffn_dim=128, vocab_size=VOCAB, num_mel_bins=16, max_source_positions=32,
             max_target_positions=64, pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=1),
        inputs="speech"))
case("clip", "transformers", "CLIP text and vision towers with the contrastive loss")(
    _hf("CLIPModel", "CLIPConfig",
        dict(text_config=dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                              vocab_size=VOCAB, max_position_embeddings=64),
             vision_config=dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                                image_size=32, patch_size=8), projection_dim=32), inputs="clip"))
case("vit_hf", "transformers", "ViT image classification (transformers)")(
    _hf("ViTForImageClassification", "ViTConfig", dict(SMALL, image_size=32, patch_size=8, num_labels=10),
        inputs="vision"))

# variants: inference, bf16, executors, depth, Thunder versions
variant("bert", "bert_infer", "BERT masked LM, inference", training=False)
variant("gpt2", "gpt2_bf16_sdpa_torchcompile", "GPT-2, bf16, executors [sdpa, torchcompile]", dtype="bfloat16",
        executors="sdpa,torchcompile")
variant("llama", "llama_infer_bf16", "Llama, inference, bf16", training=False)
variant("llama", "llama_sdpa_torchcompile", "Llama, bf16, executors [sdpa, torchcompile]",
        executors="sdpa,torchcompile")
variant("llama", "llama_cudnn", "Llama, bf16, Thunder's cuDNN executor first", executors="cudnn,sdpa,torchcompile")
variant("qwen2", "qwen2_infer_bf16", "Qwen2, inference, bf16", training=False)
variant("t5", "t5_infer", "T5, inference (decoder_input_ids given)", training=False)
case("llama_32layer", "transformers", "Llama at real depth: 32 layers, hidden 128, bf16, [sdpa, torchcompile]",
     dtype="bfloat16", executors="sdpa,torchcompile")(
    _hf("LlamaForCausalLM", "LlamaConfig", dict(SMALL, hidden_size=128, intermediate_size=256, num_hidden_layers=32,
                                                num_key_value_heads=2)))
variant("llama", "llama_thunder_main", "Llama, bf16, recorded with Thunder's main branch", thunder="main")
variant("bert", "bert_thunder_main", "BERT masked LM, recorded with Thunder's main branch", thunder="main")
variant("resnet50", "resnet50_thunder_main", "ResNet-50, recorded with Thunder's main branch", thunder="main")
variant("mixtral", "mixtral_thunder_main", "Mixtral MoE, recorded with Thunder's main branch", thunder="main")
variant("gpt2", "gpt2_thunderfx", "GPT-2 through ThunderFX (torch.compile(backend=ThunderCompiler))",
        frontend="thunderfx")


# -- programs that exercise Thunder's own transforms --------------------------------------------------

class CheckpointMLP(nn.Module):
    """Activation checkpointing: each block under torch.utils.checkpoint (non-reentrant)."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(64), nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 64))
                                    for _ in range(3))
        self.head = nn.Linear(64, 10)

    def forward(self, x, y):
        import torch.utils.checkpoint as cp

        for b in self.blocks:
            x = x + cp.checkpoint(b, x, use_reentrant=False)
        return F.cross_entropy(self.head(x), y)


class NoGradTeacher(nn.Module):
    """A no_grad region inside a training step: a teacher's targets, then a distillation loss."""

    def __init__(self):
        super().__init__()
        self.student = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
        self.teacher = nn.Sequential(nn.Linear(64, 128), nn.Tanh(), nn.Linear(128, 10))

    def forward(self, x):
        with torch.no_grad():
            target = F.softmax(self.teacher(x) / 2.0, dim=-1)
        return F.kl_div(F.log_softmax(self.student(x), dim=-1), target, reduction="batchmean")


class InPlace(nn.Module):
    """In-place ops as users write them: add_, mul_, relu_, masked_fill_, copy_ into a buffer."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 64)
        self.fc2 = nn.Linear(64, 10)
        self.register_buffer("stat", torch.zeros(64))

    def forward(self, x, y):
        h = self.fc1(x)
        h.mul_(0.5).add_(x)
        h = h.clamp(max=4.0)
        h = F.relu(h, inplace=True)
        g = self.fc2(h)
        g.masked_fill_(x[:, :10] < -2.0, 0.0)
        self.stat.copy_(h.detach().mean(0))
        return F.cross_entropy(g, y)


class MiscOps(nn.Module):
    """cross-entropy, topk, bitwise shifts, empty_like / rand_like, repeat_interleave, getitem splits, partial."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 64)
        self.act = functools.partial(F.leaky_relu, negative_slope=0.1)

    def forward(self, x, ids, y):
        h = self.act(self.fc(x))
        a, b = h[:, :32], h[:, 32:]
        top, idx = torch.topk(a, 4, dim=-1)
        bits = (ids << 2) >> 1
        noise = torch.rand_like(b) * 0.0
        buf = torch.empty_like(b)
        buf.copy_(b + noise)
        rep = torch.repeat_interleave(top, 2, dim=-1)
        z = torch.cat([buf, rep.sum(-1, keepdim=True).expand(-1, 32)], dim=-1) + bits.float().mean() * 1e-3
        return F.cross_entropy(z, y) + idx.float().mean() * 0.0


def _custom_sincos():
    """A custom operator registered through torch.library (with a fake and an autograd formula)."""
    import torch.library

    if hasattr(_custom_sincos, "op"):
        return _custom_sincos.op

    @torch.library.custom_op("zoo::sincos", mutates_args=())
    def sincos(x: torch.Tensor) -> torch.Tensor:
        return torch.sin(x) * torch.cos(x)

    @sincos.register_fake
    def _(x):
        return torch.empty_like(x)

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.cos(2 * x)

    def setup(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    sincos.register_autograd(backward, setup_context=setup)
    _custom_sincos.op = sincos
    return sincos


class CustomOp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x, y):
        return F.cross_entropy(self.fc2(_custom_sincos()(self.fc1(x))), y)


class GraphBreak(nn.Module):
    """A data-dependent Python condition (.item()): thunder.jit refuses it, ThunderFX splits around it."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x, y):
        h = self.fc1(x)
        if h.sum().item() > 0:
            h = torch.relu(h)
        else:
            h = torch.tanh(h)
        return F.cross_entropy(self.fc2(h), y)


def _prog(cls, extra=()):
    def build(device, dtype, training):
        torch.manual_seed(0)
        m = cls()
        x = torch.randn((16, 64), generator=_gen(device)).to(device=device, dtype=dtype)
        y = torch.randint(0, 10, (16,), generator=_gen(device)).to(device)
        args = [x]
        if "ids" in extra:
            args.append(torch.randint(0, 64, (16, 8), generator=_gen(device)).to(device))
        if "y" in extra:
            args.append(y)
        return m, tuple(args)

    return build


case("checkpointing", "torch", "activation checkpointing (torch.utils.checkpoint, non-reentrant), 3 MLP blocks")(
    _prog(CheckpointMLP, ("y",)))
case("no_grad_teacher", "torch", "a no_grad region in a training step (teacher targets, KL distillation)")(
    _prog(NoGradTeacher))
case("inplace_ops", "torch", "in-place add_, mul_, relu_, masked_fill_ and copy_ into a buffer")(
    _prog(InPlace, ("y",)))
case("misc_ops", "torch", "cross-entropy, topk, bitwise shifts, empty_like, rand_like, repeat_interleave, "
     "getitem splits, functools.partial")(_prog(MiscOps, ("ids", "y")))
case("custom_op", "torch", "a custom operator (torch.library.custom_op zoo::sincos with autograd)")(
    _prog(CustomOp, ("y",)))
variant("custom_op", "custom_op_thunder_main", "the torch.library custom operator, Thunder's main branch",
        thunder="main")
case("graph_break", "torch", "a data-dependent condition (.item()): thunder.jit fails, ThunderFX splits the graph")(
    _prog(GraphBreak, ("y",)))
variant("graph_break", "graph_break_thunderfx", "the data-dependent condition through ThunderFX", frontend="thunderfx")


def _zoo_executor():
    """An operator executor registered with thunder.extend, as Thunder's tutorials do: it claims ltorch.gelu
    with its own operator zoo_gelu, so the final traces call a symbol no table of Thunder's own lists."""
    import thunder
    import thunder.torch as ltorch
    from thunder.extend import OperatorExecutor, register_executor

    if thunder.extend.get_executor("zoo_ex") is not None:
        return
    ex = OperatorExecutor("zoo_ex", version="0.1")
    register_executor(ex)

    def gelu_impl(a, approximate="none"):
        return F.gelu(a, approximate=approximate)

    zoo_gelu = ex.register_operator("zoo_gelu", like=ltorch.gelu, fn=gelu_impl)
    ex.register_implementation(ltorch.gelu, zoo_gelu, checker=lambda a, approximate="none": True)


class GeluMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


case("extend_executor", "torch", "an operator executor registered with thunder.extend claiming ltorch.gelu "
     "(zoo_gelu), inference, recorded on the cpu", training=False, executors="zoo_ex")(_prog(GeluMLP))
CASES["extend_executor"]["setup"] = _zoo_executor
CASES["extend_executor"]["device"] = "cpu"


def names():
    return list(CASES)
