# Builds the judge, sentence-transformers/all-mpnet-base-v2, as an ONNX graph in Transformers.js's
# layout WITHOUT torch or transformers: the graph is written node by node with the `onnx` package
# and the weights are read from model.safetensors with numpy alone (8-byte little-endian header
# length, a JSON header, then raw little-endian tensors). Same inputs and output as a torch export
# (input_ids, attention_mask: int64 [b, s]; last_hidden_state: float32 [b, s, 768]; opset 17).
#
# MPNet, as transformers' MPNetModel computes it (pooler left out, as sentence-transformers does):
#   positions: RoBERTa's, from the ids: cumsum(id != pad) * (id != pad) + pad (pad = 1), so the
#     first real token sits at position 2 and padding at 1;
#   embeddings: LayerNorm(word[id] + position[pos]) (no token types), eps from config.json;
#   relative attention bias: T5-style buckets (32, bidirectional: 16 per direction, 8 exact, then
#     log-spaced up to distance 128), one [heads] vector per bucket, computed ONCE from the
#     sequence length and added to every layer's attention scores (before the padding mask);
#   12 post-LayerNorm layers: softmax(q k^T / 8 + bias + mask) v, o, LayerNorm(+x); exact (erf)
#     GELU feed-forward, LayerNorm(+x).
# The bucket of every relative distance is worked out here in float32 exactly as torch does it and
# kept as a small table of bias vectors [257, heads] (distances clipped to +-128, past which the
# bucket no longer changes); the graph gathers from it by (key - query).
#
# int8 (the shipped file): every MatMul weight (stored [in, out]) gets one scale per output column
# and the word embeddings one per row, symmetric, round-half-even, [-127, 127]; a DequantizeLinear
# in the graph restores fp32, so all compute stays fp32 (the scheme the torch-based export used:
# 436 MB -> 111 MB).
#
# Before anything is written, the graph is run with onnxruntime on the committed fixture
# (scripts/fixtures/judge-reference.json: token ids and mean-pooled vectors computed with the
# torch-exported int8 graph) and must agree at cosine >= 0.998 on every text, in a padded batch.
#   python build-judge.py <safetensors folder> <output folder> [--fp32] [--no-check]
# Needs numpy, onnx, onnxruntime (scripts/fetch-judge.mjs pins them and makes the venv).
import json, os, shutil, struct, sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, 'fixtures', 'judge-reference.json')
MAX_DISTANCE, CLIP = 128, 128
MAX_TOKENS = 384  # sentence-transformers' max_seq_length for all-mpnet-base-v2


def read_safetensors(path):
    with open(path, 'rb') as f:
        n = struct.unpack('<Q', f.read(8))[0]
        header = json.loads(f.read(n))
    data = np.memmap(path, dtype=np.uint8, mode='r', offset=8 + n)
    kinds = {'F32': '<f4', 'I64': '<i8', 'F16': '<f2'}
    out = {}
    for name, t in header.items():
        if name == '__metadata__':
            continue
        a, b = t['data_offsets']
        out[name] = np.frombuffer(data[a:b], dtype=kinds[t['dtype']]).reshape(t['shape']).astype(np.float32 if t['dtype'] != 'I64' else np.int64)
    return out


def bucket(rel, num_buckets=32, max_distance=MAX_DISTANCE):
    """transformers' MPNetEncoder.relative_position_bucket, in float32 as torch computes it."""
    n = -rel
    half = num_buckets // 2
    ret = (n < 0).astype(np.int64) * half
    n = np.abs(n)
    exact = half // 2
    with np.errstate(divide='ignore', invalid='ignore'):  # log(0): distance 0 is exact anyway
        large = exact + (np.log(n.astype(np.float32) / np.float32(exact)) / np.float32(np.log(max_distance / exact)) * np.float32(half - exact)).astype(np.int64)
    large = np.minimum(large, half - 1)
    return ret + np.where(n < exact, n, large)


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.k = [], [], 0

    def init(self, name, array):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def const(self, values, dtype=np.int64):
        return self.init(f'c{len(self.inits)}', np.array(values, dtype=dtype))

    def op(self, op_type, inputs, out=None, **attrs):
        self.k += 1
        out = out or f'{op_type.lower()}_{self.k}'
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=f'n{self.k}_{op_type}', **attrs))
        return out


def build(w, cfg, quantize):
    H, heads = cfg['hidden_size'], cfg['num_attention_heads']
    dh, eps, pad = H // heads, float(cfg['layer_norm_eps']), cfg['pad_token_id']
    assert cfg.get('hidden_act') == 'gelu' and cfg.get('relative_attention_num_buckets') == 32
    g = Graph()
    dq = []  # DequantizeLinear nodes, placed first

    def weight(name, array, axis):
        """A weight the graph reads as fp32; int8 + per-channel scales + DequantizeLinear when quantising."""
        if not quantize or array.size < 4096:
            return g.init(name, array)
        scale = np.abs(array).max(axis=1 - axis) / np.float32(127.0)
        scale[scale == 0] = 1
        q = np.clip(np.round(array / (scale[None, :] if axis == 1 else scale[:, None])), -127, 127).astype(np.int8)
        g.init(name + '_q', q)
        g.init(name + '_scale', scale.astype(np.float32))
        dq.append(helper.make_node('DequantizeLinear', [name + '_q', name + '_scale'], [name], axis=axis, name=name + '_dq'))
        return name

    def linear(x, prefix):
        m = g.op('MatMul', [x, weight(prefix + '.weight_t', w[prefix + '.weight'].T, 1)])
        return g.op('Add', [m, g.init(prefix + '.bias', w[prefix + '.bias'])])

    def norm(x, prefix):
        return g.op('LayerNormalization', [x, g.init(prefix + '.weight', w[prefix + '.weight']), g.init(prefix + '.bias', w[prefix + '.bias'])], axis=-1, epsilon=eps)

    # embeddings: RoBERTa positions from the ids
    real = g.op('Cast', [g.op('Not', [g.op('Equal', ['input_ids', g.const(pad)])])], to=TensorProto.INT64)
    pos = g.op('Add', [g.op('Mul', [g.op('CumSum', [real, g.const(1)]), real]), g.const(pad)])
    word = g.op('Gather', [weight('embeddings.word_embeddings.weight', w['embeddings.word_embeddings.weight'], 0), 'input_ids'])
    x = g.op('Add', [word, g.op('Gather', [g.init('embeddings.position_embeddings.weight', w['embeddings.position_embeddings.weight']), pos])])
    x = norm(x, 'embeddings.LayerNorm')

    # padding mask: (1 - mask) * float32 min, [b, 1, 1, s]
    m = g.op('Cast', [g.op('Unsqueeze', ['attention_mask', g.const([1, 2])])], to=TensorProto.FLOAT)
    mask = g.op('Mul', [g.op('Sub', [g.const(1.0, np.float32), m]), g.const(np.finfo(np.float32).min, np.float32)])

    # relative attention bias, [1, heads, s, s], once for all layers
    rel = np.arange(-CLIP, CLIP + 1)
    table = w['encoder.relative_attention_bias.weight'][bucket(rel)]  # [257, heads]
    s = g.op('Gather', [g.op('Shape', ['input_ids']), g.const(1)], axis=0)
    r = g.op('Range', [g.const(0), s, g.const(1)])
    d = g.op('Sub', [g.op('Unsqueeze', [r, g.const([0])]), g.op('Unsqueeze', [r, g.const([1])])])  # key - query
    idx = g.op('Add', [g.op('Clip', [d, g.const(-CLIP), g.const(CLIP)]), g.const(CLIP)])
    bias = g.op('Unsqueeze', [g.op('Transpose', [g.op('Gather', [g.init('relative_attention_bias.table', table), idx])], perm=[2, 0, 1]), g.const([0])])

    split = g.const([0, 0, heads, dh])
    merge = g.const([0, 0, H])
    scale = g.const(np.sqrt(dh), np.float32)
    for i in range(cfg['num_hidden_layers']):
        p = f'encoder.layer.{i}.'
        q, k, v = (g.op('Reshape', [linear(x, p + f'attention.attn.{t}'), split]) for t in 'qkv')
        q = g.op('Transpose', [q], perm=[0, 2, 1, 3])
        k = g.op('Transpose', [k], perm=[0, 2, 3, 1])
        v = g.op('Transpose', [v], perm=[0, 2, 1, 3])
        scores = g.op('Add', [g.op('Add', [g.op('Div', [g.op('MatMul', [q, k]), scale]), bias]), mask])
        ctx = g.op('MatMul', [g.op('Softmax', [scores], axis=-1), v])
        ctx = g.op('Reshape', [g.op('Transpose', [ctx], perm=[0, 2, 1, 3]), merge])
        x = norm(g.op('Add', [linear(ctx, p + 'attention.attn.o'), x]), p + 'attention.LayerNorm')
        h = linear(x, p + 'intermediate.dense')
        h = g.op('Mul', [g.op('Mul', [h, g.op('Add', [g.op('Erf', [g.op('Div', [h, g.const(np.sqrt(2.0), np.float32)])]), g.const(1.0, np.float32)])]), g.const(0.5, np.float32)])
        out = 'last_hidden_state' if i == cfg['num_hidden_layers'] - 1 else None
        x = g.op('LayerNormalization', [g.op('Add', [linear(h, p + 'output.dense'), x]), g.init(p + 'output.LayerNorm.weight', w[p + 'output.LayerNorm.weight']), g.init(p + 'output.LayerNorm.bias', w[p + 'output.LayerNorm.bias'])], out, axis=-1, epsilon=eps)

    ids = helper.make_tensor_value_info('input_ids', TensorProto.INT64, ['b', 's'])
    am = helper.make_tensor_value_info('attention_mask', TensorProto.INT64, ['b', 's'])
    y = helper.make_tensor_value_info('last_hidden_state', TensorProto.FLOAT, ['b', 's', H])
    graph = helper.make_graph(dq + g.nodes, 'mpnet', [ids, am], [y], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], producer_name='mnemograph build-judge.py', ir_version=8)
    onnx.checker.check_model(model)
    return model, len(dq)


def mean_pooled(sess, batch):
    """L2-normalised mean-pooled vectors of token-id lists, run as ONE padded batch."""
    n = max(len(t) for t in batch)
    ids = np.ones((len(batch), n), np.int64)
    mask = np.zeros((len(batch), n), np.int64)
    for i, t in enumerate(batch):
        ids[i, :len(t)] = t
        mask[i, :len(t)] = 1
    h = sess.run(None, {'input_ids': ids, 'attention_mask': mask})[0]
    v = (h * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def check(model_bytes):
    import onnxruntime as ort
    fx = json.load(open(FIXTURE))
    sess = ort.InferenceSession(model_bytes, providers=['CPUExecutionProvider'])
    got = mean_pooled(sess, [t['ids'] for t in fx['texts']])
    ref = np.array([t['vector'] for t in fx['texts']], np.float32)
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    return [float(c) for c in (got * ref).sum(1)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    src, dst = args
    quantize = '--fp32' not in sys.argv
    cfg = json.load(open(os.path.join(src, 'config.json')))
    model, n_dq = build(read_safetensors(os.path.join(src, 'model.safetensors')), cfg, quantize)
    blob = model.SerializeToString()
    cos = None
    if '--no-check' not in sys.argv:
        cos = check(blob)
        if min(cos) < 0.998:
            sys.exit(f'build-judge: the graph disagrees with the reference vectors (cosines {[round(c, 5) for c in cos]}; need >= 0.998): nothing written')
    name = 'model_quantized.onnx' if quantize else 'model.onnx'
    os.makedirs(os.path.join(dst, 'onnx'), exist_ok=True)
    with open(os.path.join(dst, 'onnx', name), 'wb') as f:
        f.write(blob)
    for f in ['config.json', 'tokenizer.json', 'special_tokens_map.json']:
        shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    tc = json.load(open(os.path.join(src, 'tokenizer_config.json')))
    tc['model_max_length'] = MAX_TOKENS
    json.dump(tc, open(os.path.join(dst, 'tokenizer_config.json'), 'w'), indent=2)
    print(json.dumps({'file': name, 'int8_matrices': n_dq, 'bytes': len(blob), 'min_cosine_vs_reference': None if cos is None else round(min(cos), 6)}))


if __name__ == '__main__':
    main()
