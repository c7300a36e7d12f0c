#!/usr/bin/env python3
"""Writes the seed corpora of the wire and JSON fuzz targets from conformance/*.json, and
copies the repository's manifests and definition files into the YAML targets' corpora.

Run it after the conformance vectors change: `python3 fuzz/seeds.py`. Each seed is named
after the hash of its bytes, so running it twice changes nothing."""

import glob
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def write(target, data):
    path = os.path.join(HERE, target, "corpus", hashlib.sha1(data).hexdigest()[:16])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def frames_of(vector):
    return [bytes.fromhex(f["hex"]) for f in vector.get("frames", [])]


def wire_input(frames):
    """The wire target's input format: each frame as a 2-byte big-endian length and its bytes."""
    return b"".join(len(f).to_bytes(2, "big") + f for f in frames)


def vectors():
    for path in sorted(glob.glob(os.path.join(ROOT, "conformance", "*.json"))):
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        for key in ("vectors", "invalid", "bad_json"):
            yield from content.get(key, [])
        for conversation in content.get("conversations", []):
            yield from conversation.get("steps", [])


def main():
    for vector in vectors():
        frames = frames_of(vector)
        if not frames or sum(map(len, frames)) > 8192:
            continue
        write("wire", wire_input(frames))
        for frame in frames[4:6]:
            if frame:
                write("json", frame)
    for pattern, target in [("plugins.yaml", "manifest"), ("definitions/*.yaml", "definitions"),
                            ("clients/python/tests/definitions/*.yaml", "definitions")]:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            with open(path, "rb") as f:
                write(target, f.read())


if __name__ == "__main__":
    main()
