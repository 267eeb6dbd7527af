"""Policy files as data: models and checkpoints in safetensors + JSON, never pickles.

Nothing here unpickles anything: weights are read by ``safetensors`` (a JSON
header and raw tensor bytes), everything else is JSON, and the network is built
from a whitelisted **architecture** block (:func:`build_policy`), so a file
cannot name a class or carry code. Old sb3 ``.zip`` files (whose ``data`` entry
holds cloudpickle payloads run on load) are refused by content, whatever their
name (:func:`refuse_legacy`); ``python -m training.convert_legacy`` converts one
you trust.

**Model** (what ``fof train`` ships; ``agents.ppo`` plays it): ``model.safetensors``
holds the policy's state dict (sb3 key names, e.g. ``mlp_extractor.policy_net.0.weight``,
``action_net.bias``; float16) with metadata ``{"format": WEIGHTS_FORMAT}``; the
card ``model.json`` beside it is mandatory and holds ``"format": CARD_FORMAT``, the
``"architecture"`` block and ``"weights": {"file", "sha256", "dtype", "bytes"}``;
the weights must hash to that sha256.

**Checkpoint** (``checkpoints/ckpt_<steps>.safetensors``, for ``--resume``,
``--best`` and ``self`` snapshots): tensors ``policy.<key>`` (float32) and
``optimizer.<param index>.<name>`` (Adam's ``exp_avg``, ``exp_avg_sq``, ``step``);
metadata (str -> str) ``format`` (CHECKPOINT_FORMAT), ``architecture``,
``optimizer`` (JSON: class, param_groups, non-tensor state) and ``counters``
(JSON: ``num_timesteps``, ``_n_updates``).

Every problem with a file (missing card, corrupt or truncated weights, a sha256
mismatch, tensors that do not fit the architecture) raises :class:`ModelFileError`,
a ``ValueError`` whose message is one line naming the file. Writes go to a temp
file, are fsynced, then renamed (:func:`write_atomic`); a failed write raises
:class:`WriteError` (``cannot write PATH: REASON``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fof_env.core.files import write_bytes_atomic

CARD_FORMAT = "fof-model-card/2"
LEGACY_CARD_FORMAT = "fof-model-card/1"
WEIGHTS_FORMAT = "fof-policy-weights/1"
CHECKPOINT_FORMAT = "fof-checkpoint/1"
POLICY_CLASS = "MaskableActorCriticPolicy"
POLICY_ALIASES = (POLICY_CLASS, "MlpPolicy")  # sb3's name for the same class
EXTRACTOR = "FlattenExtractor"
ACTIVATIONS = ("Tanh", "ReLU")  # names only: mapped to torch classes in _activation
MAX_PARAMETERS = 50_000_000  # a card cannot make us allocate more than this
MAX_HEADER = 100_000_000  # safetensors' own limit on the JSON header
CACHE_SIZE = 16
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


class ModelFileError(ValueError):
    """A model or checkpoint file cannot be used; the message is one line naming the file."""


class LegacyFormatError(ModelFileError):
    """The file is an sb3 zip (pickles inside): refused, never opened by sb3 or pickle."""


class WriteError(OSError):
    """Writing ``filename`` failed; ``str()`` is ``cannot write PATH: REASON``."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror or 'error'}"


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


# ----------------------------------------------------------------------------- small file helpers
def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """:func:`fof_env.core.files.write_bytes_atomic` (temp file, fsync, rename: a reader sees the old
    file or the new one, never half of one), raising :class:`WriteError` on failure."""
    try:
        write_bytes_atomic(path, data)
    except OSError as exc:
        raise WriteError(exc.errno, exc.strerror or _one_line(exc), str(path)) from exc


def card_path(model_path: str | Path) -> Path:
    """The card beside a model: ``x/model.safetensors`` -> ``x/model.json``."""
    return Path(model_path).with_suffix(".json")


def _read_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ModelFileError(f"cannot read {what} {path}: {exc.strerror or _one_line(exc)}") from exc


def legacy_message(path: Path, what: str = "model") -> str:
    """The one line refusing an sb3 zip (``what``: model or checkpoint)."""
    hint = (f"convert a model you trust with `python -m training.convert_legacy {path}`" if what == "model"
            else "a run checkpointed by an older fof cannot be resumed: start it again")
    return f"cannot use {what} {path}: it is an sb3 zip, a format that can carry code; fof no longer loads it ({hint})"


def refuse_legacy(path: Path, data: bytes | None = None, what: str = "model") -> None:
    """Raise :class:`LegacyFormatError` if ``path`` (or its bytes) is a zip: an sb3 model."""
    if data is None:
        try:
            with open(path, "rb") as f:
                data = f.read(4)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise ModelFileError(f"cannot read {what} {path}: {exc.strerror or _one_line(exc)}") from exc
    if data[:4] in _ZIP_MAGIC:
        raise LegacyFormatError(legacy_message(path, what))


def parse_safetensors(data: bytes, source: str) -> tuple[dict[str, Any], dict[str, str]]:
    """(tensors, metadata) of safetensors bytes; a bad file raises :class:`ModelFileError`."""
    import safetensors.torch

    bad = f"cannot use {source}: not a readable safetensors file (truncated or corrupt?)"
    if len(data) < 8:
        raise ModelFileError(f"{bad}: {len(data)} bytes")
    size = int.from_bytes(data[:8], "little")
    if size > min(MAX_HEADER, len(data) - 8):
        raise ModelFileError(f"{bad}: its header claims {size} bytes")
    try:
        header = json.loads(data[8:8 + size])
        tensors = safetensors.torch.load(data)
    except Exception as exc:  # the parser's own errors (SafetensorError, JSON, UTF-8)
        raise ModelFileError(f"{bad}: {_one_line(exc)}") from exc
    metadata = (header.get("__metadata__") or {}) if isinstance(header, dict) else {}
    if not isinstance(metadata, dict):
        raise ModelFileError(f"{bad}: its metadata is not a mapping")
    return tensors, metadata


def _json_field(metadata: dict[str, str], key: str, source: str) -> Any:
    try:
        return json.loads(metadata[key])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelFileError(f"cannot use {source}: its metadata has no valid {key!r} ({_one_line(exc)})") from exc


# ----------------------------------------------------------------------------- architecture
def describe_policy(policy, both_sides: bool) -> dict[str, Any]:
    """The architecture block of a live sb3 ``MaskableActorCriticPolicy`` (what
    :func:`build_policy` needs to rebuild it). Raises ``ValueError`` for a policy this
    format cannot describe (another extractor, activation or space)."""
    from gymnasium import spaces

    net_arch = policy.net_arch
    if isinstance(net_arch, list):
        net_arch = {"pi": list(net_arch), "vf": list(net_arch)}
    activation = policy.activation_fn.__name__
    extractor = type(policy.features_extractor).__name__
    if (activation not in ACTIVATIONS or extractor != EXTRACTOR or not policy.share_features_extractor
            or not isinstance(policy.action_space, spaces.Discrete)
            or len(policy.observation_space.shape) != 1):
        raise ValueError(f"cannot describe a policy with activation {activation}, extractor {extractor}, "
                         f"spaces {policy.observation_space} / {policy.action_space}")
    return {
        "policy": POLICY_CLASS,
        "net_arch": {"pi": [int(n) for n in net_arch["pi"]], "vf": [int(n) for n in net_arch["vf"]]},
        "activation": activation,
        "features_extractor": EXTRACTOR,
        "share_features_extractor": True,
        "observation_shape": [int(policy.observation_space.shape[0])],
        "num_actions": int(policy.action_space.n),
        "both_sides": bool(both_sides),
    }


def _positive_int(value: Any, limit: int = 10_000_000) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= limit


def check_architecture(arch: Any, source: str) -> dict[str, Any]:
    """Validate an architecture block read from a file; returns it. Only whitelisted values pass
    (a policy class, activation or extractor is a name looked up here, never imported)."""
    def bad(why: str) -> ModelFileError:
        return ModelFileError(f"cannot use {source}: its architecture {why}")

    if not isinstance(arch, dict):
        raise bad("is missing or not a JSON object")
    if arch.get("policy") not in POLICY_ALIASES:
        raise bad(f"names policy {arch.get('policy')!r}; supported: {', '.join(POLICY_ALIASES)}")
    if arch.get("activation") not in ACTIVATIONS:
        raise bad(f"names activation {arch.get('activation')!r}; supported: {', '.join(ACTIVATIONS)}")
    if arch.get("features_extractor", EXTRACTOR) != EXTRACTOR or arch.get("share_features_extractor", True) is not True:
        raise bad(f"needs a features extractor other than the shared {EXTRACTOR}")
    net = arch.get("net_arch")
    if not (isinstance(net, dict) and set(net) == {"pi", "vf"}
            and all(isinstance(net[k], list) and len(net[k]) <= 16 and all(_positive_int(n, 65536) for n in net[k])
                    for k in ("pi", "vf"))):
        raise bad(f"has net_arch {net!r}; expected {{'pi': [units...], 'vf': [units...]}}")
    shape = arch.get("observation_shape")
    if not (isinstance(shape, list) and len(shape) == 1 and _positive_int(shape[0])):
        raise bad(f"has observation_shape {shape!r}; expected [n]")
    if not _positive_int(arch.get("num_actions")):
        raise bad(f"has num_actions {arch.get('num_actions')!r}")
    if not isinstance(arch.get("both_sides"), bool):
        raise bad("has no both_sides flag")
    if parameter_count(arch) > MAX_PARAMETERS:
        raise bad(f"would have {parameter_count(arch):,} parameters (at most {MAX_PARAMETERS:,})")
    return arch


def parameter_count(arch: dict[str, Any]) -> int:
    """Parameters of the network an (already shape-checked) architecture describes."""
    def mlp(units: list[int]) -> tuple[int, int]:
        count, width = 0, arch["observation_shape"][0]
        for n in units:
            count, width = count + width * n + n, n
        return count, width

    pi, pi_out = mlp(arch["net_arch"]["pi"])
    vf, vf_out = mlp(arch["net_arch"]["vf"])
    actions = arch["num_actions"]
    return pi + vf + pi_out * actions + actions + vf_out + 1


def _activation(name: str):
    import torch

    return {"Tanh": torch.nn.Tanh, "ReLU": torch.nn.ReLU}[name]


def build_policy(arch: dict[str, Any], lr_schedule: Callable[[float], float] | None = None):
    """A fresh ``MaskableActorCriticPolicy`` (CPU, float32) for a checked architecture.

    The observation space is an unbounded ``Box`` of the card's shape: sb3 feeds a 1-D
    ``Box`` observation to the network as is (``preprocess_obs`` casts it to float; bounds
    only matter for images), so only the shape, checked against the game, enters.
    """
    import numpy as np
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    torch.set_num_threads(1)
    obs_space = spaces.Box(-np.inf, np.inf, shape=(arch["observation_shape"][0],), dtype=np.float32)
    return MaskableActorCriticPolicy(
        observation_space=obs_space, action_space=spaces.Discrete(arch["num_actions"]),
        lr_schedule=lr_schedule or (lambda _progress: 0.0),
        net_arch={"pi": list(arch["net_arch"]["pi"]), "vf": list(arch["net_arch"]["vf"])},
        activation_fn=_activation(arch["activation"]),
    )


def policy_blob(policy, both_sides: bool) -> tuple[bytes, str]:
    """A live policy as data for another process: its tensors as safetensors bytes and its
    architecture block as JSON (no pickled module; :func:`policy_from_blob` rebuilds it)."""
    import safetensors.torch

    tensors = {k: v.detach().cpu().contiguous() for k, v in policy.state_dict().items()}
    return safetensors.torch.save(tensors), json.dumps(describe_policy(policy, both_sides))


def policy_from_blob(blob: tuple[bytes, str], source: str):
    """The policy :func:`policy_blob` described, rebuilt (architecture checked, tensors loaded;
    ``source`` names it in a refusal)."""
    import safetensors.torch

    weights, arch = blob
    policy = build_policy(check_architecture(json.loads(arch), source))
    load_tensors(policy, safetensors.torch.load(weights), source)
    return policy


def load_tensors(policy, tensors: dict[str, Any], source: str) -> None:
    """Copy ``tensors`` (exactly the policy's state-dict keys and shapes) into ``policy``."""
    import torch

    expected = policy.state_dict()
    missing, extra = sorted(set(expected) - set(tensors)), sorted(set(tensors) - set(expected))
    if missing or extra:
        raise ModelFileError(f"cannot use {source}: its tensors do not fit the architecture "
                             f"(missing {missing[:3]}, unexpected {extra[:3]})")
    for key in expected:  # the policy's own order: the first layer is reported first
        value = tensors[key]
        if tuple(value.shape) != tuple(expected[key].shape) or not value.is_floating_point():
            raise ModelFileError(f"cannot use {source}: tensor {key} is {value.dtype} {tuple(value.shape)}, "
                                 f"the architecture needs {tuple(expected[key].shape)}")
        if not torch.isfinite(value).all():
            raise ModelFileError(f"cannot use {source}: tensor {key} holds NaN or infinite values")
    policy.load_state_dict({k: v.to(torch.float32) for k, v in tensors.items()})
    policy.set_training_mode(False)


# ----------------------------------------------------------------------------- models
def read_model_card(path: str | Path) -> dict[str, Any]:
    """The card of the model at ``path``, refusing what cannot be a fof model: an sb3 zip
    (:class:`LegacyFormatError`), no card, a card that is not JSON or of another format."""
    path = Path(path)
    refuse_legacy(path)
    cpath = card_path(path)
    if not cpath.exists():
        raise ModelFileError(f"cannot use model {path}: no card {cpath.name} beside it "
                             "(a model is its weights plus the card fof train writes)")
    try:
        card = json.loads(_read_bytes(cpath, "card"))
    except ValueError as exc:
        raise ModelFileError(f"cannot use model {path}: its card {cpath.name} is not valid JSON "
                             f"({_one_line(exc)})") from exc
    if not isinstance(card, dict):
        raise ModelFileError(f"cannot use model {path}: its card {cpath.name} is not a JSON object")
    if card.get("format") != CARD_FORMAT:
        hint = (" (an sb3 zip's card: convert the zip with `python -m training.convert_legacy`)"
                if card.get("format") == LEGACY_CARD_FORMAT else "")
        raise ModelFileError(f"cannot use model {path}: its card is format {card.get('format')!r}, "
                             f"not {CARD_FORMAT!r}{hint}")
    return card


def export_weights(policy, path: Path, dtype: str = "float16") -> dict[str, Any]:
    """Write the policy's state dict to ``path`` (safetensors, ``dtype``); returns the card's
    ``weights`` block (file, sha256, dtype, bytes)."""
    import safetensors.torch
    import torch

    cast = {"float16": torch.float16, "float32": torch.float32}[dtype]
    tensors = {k: v.detach().to(cast).contiguous() for k, v in policy.state_dict().items()}
    data = safetensors.torch.save(tensors, metadata={"format": WEIGHTS_FORMAT})
    write_atomic(path, data)
    return {"file": Path(path).name, "sha256": sha256_of(data), "dtype": dtype, "bytes": len(data)}


def _load_model(path: Path):
    card = read_model_card(path)
    source = f"model {path}"
    arch = check_architecture(card.get("architecture"), source)
    if card.get("observation_shape") != arch["observation_shape"] or card.get("num_actions") != arch["num_actions"]:
        raise ModelFileError(f"cannot use {source}: its card's observation_shape/num_actions disagree "
                             "with its architecture")
    data = _read_bytes(path, "model")
    refuse_legacy(path, data)
    weights = card.get("weights")
    want = weights.get("sha256") if isinstance(weights, dict) else None
    if sha256_of(data) != want:
        raise ModelFileError(f"cannot use {source}: its sha256 {sha256_of(data)[:16]}... does not match "
                             f"the card's {str(want)[:16]}... (weights replaced, or the card of another model)")
    tensors, metadata = parse_safetensors(data, source)
    if metadata.get("format") != WEIGHTS_FORMAT:
        raise ModelFileError(f"cannot use {source}: it is not a weights file ({metadata.get('format')!r})")
    policy = build_policy(arch)
    load_tensors(policy, tensors, source)
    return policy


# ----------------------------------------------------------------------------- checkpoints
@dataclass
class Checkpoint:
    """What a checkpoint file holds (see the module docstring)."""

    architecture: dict[str, Any]
    policy_state: dict[str, Any]
    optimizer_state: dict[str, Any]  # torch's Optimizer.state_dict() layout
    optimizer_class: str
    counters: dict[str, int]


def write_checkpoint(path: Path, policy, counters: dict[str, int], both_sides: bool) -> None:
    """Write ``policy`` (float32) and its optimizer state with ``counters`` to ``path``."""
    import safetensors.torch
    import torch

    tensors = {f"policy.{k}": v.detach().to(torch.float32).clone().contiguous()
               for k, v in policy.state_dict().items()}
    opt = policy.optimizer.state_dict()
    plain: dict[str, dict[str, Any]] = {}
    for index, entries in opt["state"].items():
        for name, value in entries.items():
            if isinstance(value, torch.Tensor):
                tensors[f"optimizer.{index}.{name}"] = value.detach().clone().contiguous()
            else:
                plain.setdefault(str(index), {})[name] = value
    metadata = {
        "format": CHECKPOINT_FORMAT,
        "architecture": json.dumps(describe_policy(policy, both_sides)),
        "optimizer": json.dumps({"class": type(policy.optimizer).__name__,
                                 "param_groups": opt["param_groups"], "state": plain}),
        "counters": json.dumps({k: int(v) for k, v in counters.items()}),
    }
    write_atomic(path, safetensors.torch.save(tensors, metadata=metadata))


def read_checkpoint(path: str | Path) -> Checkpoint:
    """Read a checkpoint written by :func:`write_checkpoint` (see the module docstring)."""
    path = Path(path)
    source = f"checkpoint {path}"
    data = _read_bytes(path, "checkpoint")
    refuse_legacy(path, data, "checkpoint")
    tensors, metadata = parse_safetensors(data, source)
    if metadata.get("format") != CHECKPOINT_FORMAT:
        raise ModelFileError(f"cannot use {source}: format {metadata.get('format')!r}, not {CHECKPOINT_FORMAT!r}")
    arch = check_architecture(_json_field(metadata, "architecture", source), source)
    optimizer = _json_field(metadata, "optimizer", source)
    counters = _json_field(metadata, "counters", source)
    if not (isinstance(optimizer, dict) and isinstance(optimizer.get("param_groups"), list)
            and isinstance(optimizer.get("state", {}), dict) and isinstance(counters, dict)
            and all(type(v) is int and v >= 0 for v in counters.values())):
        raise ModelFileError(f"cannot use {source}: its optimizer state or counters are malformed")
    policy_state, state = {}, {}
    for name, value in tensors.items():
        group, _, rest = name.partition(".")
        if group == "policy" and rest:
            policy_state[rest] = value
            continue
        index, _, key = rest.partition(".")
        if group != "optimizer" or not index.isdigit() or not key:
            raise ModelFileError(f"cannot use {source}: unexpected tensor {name!r}")
        state.setdefault(int(index), {})[key] = value
    for index, entries in optimizer.get("state", {}).items():
        if not str(index).isdigit() or not isinstance(entries, dict):
            raise ModelFileError(f"cannot use {source}: malformed optimizer state")
        state.setdefault(int(index), {}).update(entries)
    return Checkpoint(arch, policy_state, {"state": state, "param_groups": optimizer["param_groups"]},
                      str(optimizer.get("class")), counters)


def restore_optimizer(optimizer, checkpoint: Checkpoint, source: str) -> None:
    """Load the checkpoint's optimizer state into ``optimizer`` (same class, groups and shapes)."""
    if type(optimizer).__name__ != checkpoint.optimizer_class:
        raise ModelFileError(f"cannot use {source}: its optimizer is {checkpoint.optimizer_class}, "
                             f"the run's is {type(optimizer).__name__}")
    params = [p for group in optimizer.param_groups for p in group["params"]]
    saved = checkpoint.optimizer_state
    groups = saved["param_groups"]
    if (len(groups) != len(optimizer.param_groups)
            or any(not isinstance(g, dict) or len(g.get("params", [])) != len(c["params"])
                   for g, c in zip(groups, optimizer.param_groups, strict=False))):
        raise ModelFileError(f"cannot use {source}: its optimizer groups do not fit the run's policy")
    for index, entries in saved["state"].items():
        if not 0 <= index < len(params):
            raise ModelFileError(f"cannot use {source}: optimizer state for parameter {index} of {len(params)}")
        for name in ("exp_avg", "exp_avg_sq"):
            value = entries.get(name)
            if value is not None and tuple(value.shape) != tuple(params[index].shape):
                raise ModelFileError(f"cannot use {source}: optimizer {name} of parameter {index} has the "
                                     f"wrong shape {tuple(value.shape)}")
    # JSON turned tuples (Adam's betas) into lists: give each value the type the live group has
    fixed = [{k: tuple(v) if isinstance(current.get(k), tuple) and isinstance(v, list) else v
              for k, v in group.items()} for group, current in zip(groups, optimizer.param_groups, strict=True)]
    try:
        optimizer.load_state_dict({"state": saved["state"], "param_groups": fixed})
    except (ValueError, KeyError, TypeError, RuntimeError) as exc:
        raise ModelFileError(f"cannot use {source}: its optimizer state does not load ({_one_line(exc)})") from exc


# ----------------------------------------------------------------------------- cached loading
_cache: OrderedDict[tuple, Any] = OrderedDict()
_cache_lock = threading.Lock()


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def _cached(key: tuple, build: Callable[[], Any]):
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    policy = build()
    with _cache_lock:
        _cache[key] = policy
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return policy


def clear_cache() -> None:
    """Forget every cached policy."""
    with _cache_lock:
        _cache.clear()


def load_model_policy(path: str | Path):
    """The policy of a model (weights + mandatory card), CPU, eval mode; cached (at most
    ``CACHE_SIZE``) by resolved path, size and mtime of both files, so a replaced file is reread.
    Raises ``FileNotFoundError`` (no file) or :class:`ModelFileError`."""
    path = Path(path).resolve()
    cpath = card_path(path)
    key = ("model", str(path), _stamp(path), _stamp(cpath) if cpath.exists() else None)
    return _cached(key, lambda: _load_model(path))


def load_checkpoint_policy(path: str | Path, *, num_actions: int | None = None,
                           observation_shape: list[int] | None = None):
    """The policy of a checkpoint (a ``self`` snapshot), CPU, eval mode; cached like
    :func:`load_model_policy`. ``num_actions``/``observation_shape`` given: refuse another layout."""
    path = Path(path).resolve()

    def build():
        checkpoint = read_checkpoint(path)
        arch = checkpoint.architecture
        for name, want in (("num_actions", num_actions), ("observation_shape", observation_shape)):
            if want is not None and arch[name] != want:
                raise ModelFileError(f"cannot use checkpoint {path}: {name} {arch[name]} != {want}")
        policy = build_policy(arch)
        load_tensors(policy, checkpoint.policy_state, f"checkpoint {path}")
        return policy

    return _cached(("checkpoint", str(path), _stamp(path), num_actions, str(observation_shape)), build)
