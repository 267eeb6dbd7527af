"""Convert an old sb3 ``.zip`` model (``fof-model-card/1``) to the safetensors format.

    python -m training.convert_legacy runs/x/model.zip [--out runs/x/model.safetensors]

An sb3 zip's ``data`` entry holds cloudpickle payloads (``:serialized:``) that sb3
runs when it loads the file, so this reads the zip without sb3 and without pickle:

- ``policy.pth`` with ``torch.load(weights_only=True, map_location="cpu")``, torch's
  restricted unpickler that builds only tensors and plain containers (anything
  else is an error, never a call);
- ``data`` only as JSON, and only the plain ``policy_kwargs`` value, to cross-check the
  network; no ``:serialized:`` value is decoded;
- the architecture from the model's card beside it (``config.net_arch``, sb3's
  default ``Tanh``, the card's observation shape and action count).

It writes the weights in their own dtype (the zips ``fof train`` made hold float16)
and the new card (``--out`` with ``.json``): every key of the old card kept, ``format``
``fof-model-card/2``, ``architecture``, ``weights`` (file, sha256) and ``converted_from``
(the zip's name and sha256). Only convert a file you trust: the conversion is safe,
but the model still decides how a bot plays.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

from agents import policy_io
from agents.policy_io import CARD_FORMAT, ModelFileError

MAX_ENTRY = 512 * 1024 * 1024  # refuse larger zip entries (a zip bomb is not a model)


def _entry(archive: zipfile.ZipFile, name: str, source: Path) -> bytes:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ModelFileError(f"cannot convert {source}: no {name!r} in the zip (not an sb3 model)") from None
    if info.file_size > MAX_ENTRY:
        raise ModelFileError(f"cannot convert {source}: its {name!r} is {info.file_size} bytes")
    return archive.read(info)


def legacy_architecture(card: dict[str, Any], source: Path) -> dict[str, Any]:
    """The architecture block of an old card (``fof train``'s policies: shared flatten
    extractor, the same hidden layers for policy and value nets, Tanh)."""
    config = card.get("config") if isinstance(card.get("config"), dict) else {}
    units = config.get("net_arch")
    arch = {
        "policy": policy_io.POLICY_CLASS,
        "net_arch": {"pi": units, "vf": units},
        "activation": "Tanh",
        "features_extractor": policy_io.EXTRACTOR,
        "share_features_extractor": True,
        "observation_shape": card.get("observation_shape"),
        "num_actions": card.get("num_actions"),
        "both_sides": card.get("side") == "both",
    }
    return policy_io.check_architecture(arch, f"the card of {source}")


def _check_policy_kwargs(archive: zipfile.ZipFile, arch: dict[str, Any], source: Path) -> None:
    """Cross-check the zip's plain-JSON ``policy_kwargs`` (never decoding a pickled value)."""
    try:
        data = json.loads(_entry(archive, "data", source))
    except ValueError as exc:
        raise ModelFileError(f"cannot convert {source}: its 'data' entry is not JSON") from exc
    kwargs = data.get("policy_kwargs", {}) if isinstance(data, dict) else None
    if not isinstance(kwargs, dict) or ":serialized:" in kwargs or set(kwargs) - {"net_arch"}:
        raise ModelFileError(f"cannot convert {source}: its policy_kwargs are not fof train's plain "
                             "net_arch (a custom policy); only fof train's models convert")
    net = kwargs.get("net_arch")
    if isinstance(net, list):
        net = {"pi": net, "vf": net}
    if net is not None and net != arch["net_arch"]:
        raise ModelFileError(f"cannot convert {source}: the zip's net_arch {net} differs from its card's "
                             f"{arch['net_arch']}")


def read_legacy_state(path: Path) -> dict[str, Any]:
    """The policy state dict of an sb3 zip, via ``torch.load(weights_only=True)`` only."""
    import torch

    try:
        with zipfile.ZipFile(path) as archive:
            raw = _entry(archive, "policy.pth", path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ModelFileError(f"cannot convert {path}: not a readable zip ({exc})") from exc
    try:
        state = torch.load(io.BytesIO(raw), weights_only=True, map_location="cpu")
    except Exception as exc:  # torch's restricted unpickler refuses anything but tensors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelFileError(f"cannot convert {path}: its policy.pth is not plain tensors ({first})") from exc
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise ModelFileError(f"cannot convert {path}: its policy.pth is not a state dict of tensors")
    return state


def convert(old: Path, out: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Convert the sb3 zip ``old`` (with its card) to ``out`` (default: ``old`` with
    ``.safetensors``) and its card; returns (weights path, new card)."""
    old = Path(old)
    out = Path(out) if out else old.with_suffix(".safetensors")
    if out.suffix != ".safetensors":
        raise ModelFileError(f"--out must end in .safetensors, got {out}")
    try:
        card = json.loads(policy_io.card_path(old).read_text())
    except FileNotFoundError:
        raise ModelFileError(f"cannot convert {old}: no card {policy_io.card_path(old).name} beside it "
                             "(the architecture comes from the card)") from None
    except (OSError, ValueError) as exc:
        raise ModelFileError(f"cannot convert {old}: its card is unreadable ({exc})") from exc
    if not isinstance(card, dict):
        raise ModelFileError(f"cannot convert {old}: its card is not a JSON object")
    arch = legacy_architecture(card, old)
    state = read_legacy_state(old)
    with zipfile.ZipFile(old) as archive:
        _check_policy_kwargs(archive, arch, old)
    policy = policy_io.build_policy(arch)
    policy_io.load_tensors(policy, state, f"zip {old}")  # names and shapes must fit the architecture
    dtypes = {str(v.dtype) for v in state.values()}
    dtype = "float16" if dtypes == {"torch.float16"} else "float32"
    out.parent.mkdir(parents=True, exist_ok=True)
    weights = policy_io.export_weights(policy, out, dtype)
    new = dict(card)
    new.update(format=CARD_FORMAT, architecture=arch, weights=weights, converted_from={
        "file": old.name, "sha256": policy_io.sha256_of(old.read_bytes()),
        "how": "training.convert_legacy: policy.pth read with torch.load(weights_only=True); "
               "the zip's pickled entries were never decoded",
    })
    policy_io.write_atomic(policy_io.card_path(out), (json.dumps(new, indent=2) + "\n").encode())
    return out, new


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.convert_legacy", description=__doc__.split("\n")[0])
    parser.add_argument("old", type=Path, help="the sb3 .zip model (its .json card beside it)")
    parser.add_argument("--out", type=Path, help="the new weights file (default: OLD with .safetensors)")
    args = parser.parse_args(argv)
    try:
        out, card = convert(args.old, args.out)
    except (ModelFileError, OSError) as exc:
        print(f"convert_legacy: {exc}", file=sys.stderr)
        return 2
    print(f"{args.old} -> {out} (sha256 {card['weights']['sha256']}) and {policy_io.card_path(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
