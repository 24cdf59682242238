"""The production shape on one machine, on loopback: nginx in front of gunicorn and uvicorn.

    with Stack(http=2, ws=2) as stack:
        stack.url            # the main port: nginx over every HTTP and every WebSocket process
        stack.pair_urls[0]   # pair 1 only: HTTP process 1 for pages and posts, WebSocket process 1

Plain HTTP goes to gunicorn's sync workers (fast for Django's sync views), WebSockets to single
uvicorn processes (``uvicorn --workers N`` leaves TCP_NODELAY off: ~40 ms stalls), nginx routes
``/ws/`` to the latter and the rest to the former, and the processes share nothing but a
throwaway PostgreSQL database and a throwaway Redis. Everything lives in a temporary directory,
and ``stop()`` ends every process and removes it. docs/deploy.md describes the same shape on a
real host.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from devstack.launcher import ROOT, ServerProcess, uvicorn_command
from devstack.processes import Postgres, Redis, free_port, pg_binary, wait_for_port

SETUP_HINT = "scripts/stack and scripts/test install it from Debian's packages"


class Stack:
    """PostgreSQL, Redis, ``http`` gunicorn and ``ws`` uvicorn processes, and nginx routing them.

    ``url`` is the main port (what a host would publish); ``pair_urls[i]`` reaches only HTTP
    process i and WebSocket process i (wrapping around when the counts differ), so that a test
    can keep two players on different processes. ``logs()`` returns every process's output.
    ``workers`` is gunicorn's sync workers per HTTP process; ``solve`` builds the strategy
    tables if missing; ``env`` adds to the processes' environment (the caller's, plus
    production settings for plain HTTP on loopback: see ``environment``).
    """

    def __init__(
        self,
        http: int = 2,
        ws: int = 2,
        port: int | None = None,
        workers: int = 1,
        solve: bool = False,
        env: dict[str, str] | None = None,
    ) -> None:
        if http < 1 or ws < 1 or workers < 1:
            raise ValueError("a stack needs at least one of each process and one worker")
        self.http_count, self.ws_count, self.workers = http, ws, workers
        self.port = port
        self.solve = solve
        self.extra_env = env or {}
        self.directory: Path | None = None
        self.postgres: Postgres | None = None
        self.redis: Redis | None = None
        self.http: list[ServerProcess] = []
        self.ws: list[ServerProcess] = []
        self.nginx: ServerProcess | None = None
        self.background: list[ServerProcess] = []
        self.pair_ports: list[int] = []
        self.env: dict[str, str] = {}

    # -- what a caller uses ------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The main port: pages balanced over every HTTP process, sockets over every WS one."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def pair_urls(self) -> list[str]:
        """One URL per pair i: HTTP process i and WebSocket process i, nothing else."""
        return [f"http://127.0.0.1:{port}" for port in self.pair_ports]

    @property
    def processes(self) -> list[ServerProcess]:
        return [*self.http, *self.ws, *([self.nginx] if self.nginx else []), *self.background]

    def manage(self, *arguments: str, check: bool = True) -> subprocess.CompletedProcess:
        """Run a manage.py command against the stack's database and Redis."""
        result = subprocess.run(
            [sys.executable, "manage.py", *arguments],
            cwd=ROOT, env=self.env, capture_output=True, text=True,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise RuntimeError(
                f"manage.py {' '.join(arguments)} failed ({result.returncode}):\n"
                f"{result.stdout}{result.stderr}"
            )
        return result

    def logs(self) -> dict[str, str]:
        """Every log of the stack by name: the server processes, nginx, PostgreSQL."""
        found = {}
        if self.directory is not None:
            for path in sorted((self.directory / "logs").glob("*.log")):
                found[path.stem] = path.read_text(errors="replace")
        if self.postgres is not None and (self.postgres.directory / "log").exists():
            found["postgres"] = (self.postgres.directory / "log").read_text(errors="replace")
        return found

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of every log, one section per process: for a failure message."""
        sections = []
        for name, text in self.logs().items():
            tail = "\n".join(text.rstrip().splitlines()[-lines:])
            sections.append(f"--- {name} ---\n{tail or '(empty)'}")
        return "\n".join(sections)

    def dead(self) -> list[str]:
        """Names of the server processes (not one-off jobs) that have exited."""
        return [p.name for p in [*self.http, *self.ws, self.nginx] if p and not p.running]

    def pids(self) -> set[int]:
        """Every process of the stack running now: servers, their workers, Redis, PostgreSQL."""
        roots = [p.popen.pid for p in self.processes if p.running]
        if self.redis is not None and self.redis.process is not None:
            roots.append(self.redis.process.pid)
        if self.postgres is not None:
            with contextlib.suppress(OSError, ValueError):
                pidfile = self.postgres.data / "postmaster.pid"
                roots.append(int(pidfile.read_text().split()[0]))
        return {pid for root in roots for pid in _tree(root)}

    # -- starting and stopping ---------------------------------------------------------------

    def start(self) -> Stack:
        _check_binaries()
        if self.port is not None and not _port_is_free(self.port):
            raise RuntimeError(f"port {self.port} is in use: choose another one (--port)")
        self.directory = Path(tempfile.mkdtemp(prefix="yahtzee-stack-"))
        try:
            self._start()
        except BaseException as error:
            details = self.log_tail()
            self.stop()
            if isinstance(error, Exception):
                raise RuntimeError(f"the stack did not start: {error}\n{details}") from error
            raise
        return self

    def _start(self) -> None:
        assert self.directory is not None
        (self.directory / "logs").mkdir()
        data = self.directory / "data"
        data.mkdir()
        self.redis = Redis().start()
        self.postgres = Postgres()
        self.env = environment(self.postgres.url("yahtzee"), self.redis.url, data)
        self.env |= self.extra_env
        # Static files need no database: collect them while PostgreSQL starts. The servers must
        # wait for them (each reads the static manifest once, as it starts) but not for the
        # migration: they use the database only for requests, which nginx does not pass yet.
        python = sys.executable
        collect_command = [python, "manage.py", "collectstatic", "--noinput", "-v", "0"]
        collect = self._launch("collectstatic", None, collect_command)
        self.postgres.start()
        self.postgres.create_database("yahtzee")
        if collect.wait() != 0:
            raise RuntimeError("collectstatic failed (see its log)")
        for i in range(self.http_count):
            port = free_port()
            command = [python, "-m", "gunicorn", "yahtzee_site.wsgi:application",
                       "--bind", f"127.0.0.1:{port}", "--workers", str(self.workers),
                       "--worker-class", "sync", "--graceful-timeout", "5",
                       "--no-control-socket"]  # fmt: skip
            self.http.append(self._launch(f"http-{i + 1}", port, command))
        for i in range(self.ws_count):
            port = free_port()
            command = uvicorn_command(port, embedded=False)
            self.ws.append(self._launch(f"ws-{i + 1}", port, command))
        self.manage("migrate", "--noinput")
        if self.solve:  # the computer's tables: built once if missing, beside the servers
            self._launch("solve", None, [python, "manage.py", "solve", "--if-missing"])
        for process in [*self.http, *self.ws]:
            process.wait_until_listening(timeout=60)

        self.port = self.port or free_port()
        pairs = max(self.http_count, self.ws_count)
        self.pair_ports = [free_port() for _ in range(pairs)]
        self.nginx = self._start_nginx()

    def _launch(self, name: str, port: int | None, command: list[str]) -> ServerProcess:
        assert self.directory is not None
        process = ServerProcess(name, port, command, self.directory / "logs" / f"{name}.log")
        if port is None:
            self.background.append(process)
        process.start(self.env)
        return process

    def _start_nginx(self) -> ServerProcess:
        assert self.directory is not None
        prefix = self.directory / "nginx"
        prefix.mkdir()
        # nginx's workers drop root for "nobody": let them reach their temp directories.
        self.directory.chmod(0o711)
        prefix.chmod(0o711)
        http_ports = [p.port for p in self.http]
        ws_ports = [p.port for p in self.ws]
        config = nginx_config(prefix, self.port, self.pair_ports, http_ports, ws_ports)
        (prefix / "nginx.conf").write_text(config)
        command = [shutil.which("nginx"), "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                   "-e", "stderr", "-g", "daemon off;"]  # fmt: skip
        process = ServerProcess("nginx", self.port, command, self.directory / "logs" / "nginx.log")
        process.start(self.env)
        for port in [self.port, *self.pair_ports]:
            wait_for_port(port, process.popen, timeout=15)
        return process

    def stop(self) -> None:
        """Stop every process (nginx first, then the servers, Redis, PostgreSQL); remove files."""
        ordered = [*([self.nginx] if self.nginx else []), *self.http, *self.ws, *self.background]
        for process in ordered:
            process.terminate()
        for process in ordered:
            process.wait(15)
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def environment(database_url: str, redis_url: str, data_dir: Path) -> dict[str, str]:
    """The server processes' environment: the caller's, plus production settings on loopback."""
    env = dict(os.environ)
    for name in ("DJANGO_ALLOW_ASYNC_UNSAFE", "SQLITE_PATH"):
        env.pop(name, None)
    return env | {
        "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TRUSTED_PROXIES": "127.0.0.1,::1",  # nginx in front: players' addresses from it
        "YAHTZEE_ENV": "production",
        "YAHTZEE_HTTPS": "0",  # plain HTTP on loopback: no secure cookies, HSTS or redirect
        "STATIC_MANIFEST": "1",
        "DEBUG": "0",
        "YAHTZEE_DATA_DIR": str(data_dir),
        "PYTHONUNBUFFERED": "1",
    }


def nginx_config(
    prefix: Path, main_port: int, pair_ports: list[int], http_ports: list[int], ws_ports: list[int]
) -> str:
    """nginx's configuration: the main server over every process, one server per pair."""
    upstreams = [
        _upstream("http_all", http_ports),
        # Sockets live long: send a new one to the process holding the fewest.
        _upstream("ws_all", ws_ports, "least_conn;"),
    ]
    servers = [_server(main_port, "http_all", "ws_all")]
    for i, port in enumerate(pair_ports):
        upstreams.append(_upstream(f"http_{i + 1}", [http_ports[i % len(http_ports)]]))
        upstreams.append(_upstream(f"ws_{i + 1}", [ws_ports[i % len(ws_ports)]]))
        servers.append(_server(port, f"http_{i + 1}", f"ws_{i + 1}"))
    return f"""\
# Generated by devstack/stack.py for a loopback stack; deploy/nginx-yahtzee.conf is the real host's.
worker_processes 1;
pid {prefix}/nginx.pid;
events {{
    worker_connections 1024;
}}
http {{
    access_log off;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;

    # "Connection: upgrade" for a WebSocket handshake, "close" otherwise.
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}

{"".join(upstreams)}
{"".join(servers)}}}
"""


def _upstream(name: str, ports: list[int], method: str = "") -> str:
    lines = "".join(f"        server 127.0.0.1:{port};\n" for port in ports)
    method = f"        {method}\n" if method else ""
    return f"    upstream {name} {{\n{method}{lines}    }}\n"


# $http_host keeps the port, so that Django's CSRF check matches the browser's Origin.
_PROXY_HEADERS = """\
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # Which process answered: lets the tests see the routing (loopback stack only).
            add_header X-Stack-Upstream $upstream_addr always;
"""


def _server(port: int, http: str, ws: str) -> str:
    return f"""\
    server {{
        listen 127.0.0.1:{port};
        location /ws/ {{
            proxy_pass http://{ws};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
{_PROXY_HEADERS}            proxy_buffering off;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
        location / {{
            proxy_pass http://{http};
{_PROXY_HEADERS}            # Buffer whole answers so a slow client never holds a sync worker.
            proxy_buffering on;
        }}
    }}
"""


def _check_binaries() -> None:
    for name, package in (("nginx", "nginx"), ("redis-server", "redis-server")):
        if shutil.which(name) is None:
            raise RuntimeError(f"{name} not found: install the {package} package ({SETUP_HINT})")
    try:
        pg_binary("initdb")
    except RuntimeError as error:
        raise RuntimeError(f"{error} ({SETUP_HINT})") from None


def _port_is_free(port: int) -> bool:
    """Whether nothing listens on the port. Connections closed a moment ago (TIME_WAIT, for a
    minute after a restart) do not count: nginx binds with SO_REUSEADDR, and so does this."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _tree(root: int) -> set[int]:
    """``root`` and every process descending from it that is still alive (from /proc)."""
    children: dict[int, list[int]] = {}
    alive = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (name) state ppid ...": the name may hold spaces, so split after its ")".
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if state != "Z":
            alive.add(int(entry.name))
            children.setdefault(int(ppid), []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid in alive and pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


def still_running(pids: set[int]) -> set[int]:
    """Which of these processes are still alive (zombies count as gone)."""
    alive = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                alive.add(pid)
    return alive
