"""A minimal in-tree PEP 517 build backend (the test machine has no ``wheel`` package and no index): it writes the
wheel of the ``hearth_queue`` package, entry points included, for pip to install."""

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).parent


def _meta():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return project["name"].replace("-", "_"), project


def _dist_info(project) -> dict[str, str]:
    name = project["name"].replace("-", "_")
    points = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in items.items()) + "\n"
                     for group, items in project.get("entry-points", {}).items())
    return {
        "METADATA": f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
        "WHEEL": "Wheel-Version: 1.0\nGenerator: build_toy\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "entry_points.txt": points,
        "top_level.txt": "hearth_queue\n",
    }, name


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _, project = _meta()
    files, name = _dist_info(project)
    info = f"{name}-{project['version']}.dist-info"
    wheel = f"{name}-{project['version']}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(Path(wheel_directory) / wheel, "w") as archive:
        contents = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in sorted((ROOT / "hearth_queue").rglob("*"))
                    if p.is_file() and "__pycache__" not in p.parts]
        contents += [(f"{info}/{k}", v.encode("utf-8")) for k, v in files.items()]
        for path, data in contents:
            archive.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(data)}")
        archive.writestr(f"{info}/RECORD", "\n".join(record + [f"{info}/RECORD,,"]) + "\n")
    return wheel
