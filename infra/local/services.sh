#!/usr/bin/env bash
# Make PostgreSQL, Redis and Elasticsearch reachable on loopback for development and tests.
#   services.sh up    reuse what already answers, start the rest, wait until healthy
#   services.sh down  stop only what `up` started
#   services.sh status
#   services.sh up --es-nodes N   an Elasticsearch cluster of N nodes (2 or 3; ports 9200, 9201, 9202) instead of one node
#   services.sh up --servers-only only the servers (`npm run demo`): not the test tools below
#   services.sh es-node ...       one Elasticsearch node in the foreground, for tests (see es_node below)
# `up` also installs the Debian packages the tests need (PgBouncer, Chromium) when they are missing.
# Every failure names its cause and exits non-zero; every wait is bounded.
set -euo pipefail

ES_VERSION="8.19.21"
ES_PORT="${ES_PORT:-9200}"
# Per node; unset: 512m for a single node, 256m for each node of a cluster (three JVMs on a laptop).
ES_HEAP="${ES_HEAP:-}"
ES_USER="${ES_USER:-elasticsearch}"
PG_PORT="${PG_PORT:-5432}"
REDIS_PORT="${REDIS_PORT:-6379}"
# Outside the work tree (never committed) and readable by the unprivileged Elasticsearch user.
CACHE_DIR="${DIRECTORY_CACHE_DIR:-/var/cache/doctor-directory}"
STATE_DIR="$CACHE_DIR/state"
ES_HOME="$CACHE_DIR/elasticsearch-$ES_VERSION"
ES_DATA="$CACHE_DIR/es-data-$ES_VERSION"
ES_LOG_DIR="$CACHE_DIR/es-logs"
ES_PID_FILE="$STATE_DIR/elasticsearch.pid"
HEALTH_TIMEOUT_S="${ES_HEALTH_TIMEOUT_S:-180}"

say() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

as_root() { [ "$(id -u)" = 0 ]; }

# The state folder is machine-wide, so `down` in one checkout (CI's clean clone, say) must not stop a
# server that another checkout's `up` started and still uses: each marker names the checkout that
# started the server, and only that checkout's `down` stops it.
CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mark_started() { printf '%s\n' "$CHECKOUT" >"$STATE_DIR/$1.started"; }
# A marker without a checkout (written by an older script) counts as this checkout's.
started_here() {
  local marker="$STATE_DIR/$1.started"
  [ -f "$marker" ] || return 1
  local owner
  owner=$(cat "$marker")
  [ -z "$owner" ] || [ "$owner" = "$CHECKOUT" ]
}
started_elsewhere() { [ -f "$STATE_DIR/$1.started" ] && ! started_here "$1"; }

ensure_dirs() {
  if ! mkdir -p "$STATE_DIR" 2>/dev/null; then
    die "cannot create $CACHE_DIR; set DIRECTORY_CACHE_DIR to a writable folder"
  fi
}

# ---------- Test tools: PgBouncer and Chromium (Debian packages) ----------
# The PostgreSQL failover cluster scenario runs a PgBouncer of its own (its package's service is never
# used; packages/testing/src/private-servers/pgbouncer.ts) and the console's browser specs drive Debian's
# Chromium through playwright-core (test/browser.fixture.ts; no chromedriver). `up` installs whichever is
# missing when this user may (root, or passwordless sudo), and otherwise stops naming the command to run.
TEST_TOOL_PACKAGES=(pgbouncer chromium)

package_present() {
  case "$1" in
    pgbouncer) [ -x /usr/sbin/pgbouncer ] || [ -x /usr/bin/pgbouncer ] ;;
    chromium) [ -x /usr/bin/chromium ] ;;
    *) return 1 ;;
  esac
}

# How to get the MISSING packages (space-separated): prints `none` (nothing missing), `root` (apt-get
# as is), `sudo` (apt-get through passwordless sudo) or `refuse` (this user cannot install them).
#   install_plan MISSING UID SUDO_OK(yes|no) APT_GET(yes|no)
install_plan() {
  local missing="$1" uid="$2" sudo_ok="$3" apt_get="$4"
  if [ -z "$missing" ]; then echo none
  elif [ "$apt_get" != yes ]; then echo refuse
  elif [ "$uid" = 0 ]; then echo root
  elif [ "$sudo_ok" = yes ]; then echo sudo
  else echo refuse
  fi
}

# The error for `refuse`: what is missing, why, and the exact command to run.
install_refusal() {
  local missing="$1" apt_get="$2"
  if [ "$apt_get" = yes ]; then
    echo "the tests need $missing (Debian packages), which this user cannot install (not root, no passwordless sudo): run \`sudo apt-get install -y $missing\`, then retry"
  else
    echo "the tests need $missing, and apt-get is not here to install them: install them with this system's package manager (pgbouncer as /usr/sbin/pgbouncer, chromium as /usr/bin/chromium), then retry"
  fi
}

# apt-get as root or through passwordless sudo (PLAN), quiet, never asking, waiting for a dpkg lock
# another install holds rather than failing at once.
apt_get_as() {
  local plan="$1"
  shift
  if [ "$plan" = sudo ]; then
    sudo -n DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 "$@"
  else
    DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 "$@"
  fi
}

test_tools_up() {
  local missing=() package
  for package in "${TEST_TOOL_PACKAGES[@]}"; do package_present "$package" || missing+=("$package"); done
  [ ${#missing[@]} -eq 0 ] && return
  local apt_get=no sudo_ok=no plan
  command -v apt-get >/dev/null && apt_get=yes
  if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo_ok=yes; fi
  plan=$(install_plan "${missing[*]}" "$(id -u)" "$sudo_ok" "$apt_get")
  case "$plan" in
    root | sudo) ;;
    *) die "$(install_refusal "${missing[*]}" "$apt_get")" ;;
  esac
  local log="$STATE_DIR/apt-get.log" started=$SECONDS
  say "installing ${missing[*]} with apt-get (the tests need them; about a minute, log $log)"
  if ! apt_get_as "$plan" update >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "apt-get update failed (log: $log); install by hand: sudo apt-get install -y ${missing[*]}"
  fi
  if ! apt_get_as "$plan" install -y "${missing[@]}" >>"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "apt-get install ${missing[*]} failed (log: $log)"
  fi
  for package in "${missing[@]}"; do
    package_present "$package" || die "apt-get installed $package but its program is not where the tests look (log: $log)"
  done
  say "installed ${missing[*]} (Debian packages) in $((SECONDS - started)) s"
}

# ---------- PostgreSQL ----------
postgres_up() {
  if port_open "$PG_PORT"; then say "PostgreSQL answering on 127.0.0.1:$PG_PORT (reused)"; return; fi
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    local version
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    say "starting PostgreSQL $version (pg_ctlcluster)"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || die "pg_ctlcluster failed to start PostgreSQL $version main"
    mark_started postgres
  else
    die "PostgreSQL is not answering on 127.0.0.1:$PG_PORT and no local server was found; install postgresql or point DATABASE_URL at a running server"
  fi
  for _ in $(seq 1 30); do port_open "$PG_PORT" && { say "PostgreSQL up"; return; }; sleep 1; done
  die "PostgreSQL did not open port $PG_PORT within 30 s"
}

# ---------- Redis ----------
redis_up() {
  if port_open "$REDIS_PORT"; then say "Redis answering on 127.0.0.1:$REDIS_PORT (reused)"; return; fi
  command -v redis-server >/dev/null || die "Redis is not answering on 127.0.0.1:$REDIS_PORT and redis-server is not installed (apt-get install redis-server)"
  say "starting redis-server on 127.0.0.1:$REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /tmp --pidfile "$STATE_DIR/redis.pid" --logfile "$STATE_DIR/redis.log" || die "redis-server failed to start (see $STATE_DIR/redis.log)"
  mark_started redis
  for _ in $(seq 1 20); do port_open "$REDIS_PORT" && { say "Redis up"; return; }; sleep 0.5; done
  die "Redis did not open port $REDIS_PORT within 10 s (see $STATE_DIR/redis.log)"
}

# ---------- Elasticsearch ----------
java_major() { "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }

# Elasticsearch 8.x runs on Java 17..24 (25 dropped the SecurityManager it still relies on): take the newest fitting JDK.
pick_jdk() {
  local best="" best_major=0 home major
  for home in ${JAVA_HOME:-} /usr/lib/jvm/*; do
    [ -x "$home/bin/java" ] || continue
    major=$(java_major "$home")
    [ -n "$major" ] || continue
    if [ "$major" -ge 17 ] && [ "$major" -le 24 ] && [ "$major" -gt "$best_major" ]; then best="$home"; best_major="$major"; fi
  done
  [ -n "$best" ] || die "no JDK 17..24 found (looked at JAVA_HOME and /usr/lib/jvm/*); Elasticsearch $ES_VERSION needs one (apt-get install openjdk-17-jdk-headless)"
  echo "$best"
}

es_fetch() {
  [ -x "$ES_HOME/bin/elasticsearch" ] && return
  command -v mvn >/dev/null || die "mvn is not installed; it fetches Elasticsearch from Maven Central (apt-get install maven)"
  local download="$CACHE_DIR/download"
  mkdir -p "$download"
  local zip="$download/elasticsearch-$ES_VERSION.zip"
  if [ ! -s "$zip" ]; then
    say "fetching Elasticsearch $ES_VERSION (integ-test zip) with mvn dependency:copy"
    if ! timeout 600 mvn -q -B dependency:copy \
      "-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
      "-DoutputDirectory=$download" >"$download/mvn.log" 2>&1; then
      tail -n 20 "$download/mvn.log" >&2
      die "could not fetch Elasticsearch $ES_VERSION from Maven Central (is the registry reachable? log: $download/mvn.log)"
    fi
  fi
  say "unpacking into $ES_HOME"
  rm -rf "$ES_HOME.partial" && mkdir -p "$ES_HOME.partial"
  unzip -q "$zip" -d "$ES_HOME.partial" || die "could not unpack $zip (delete it and retry)"
  # The zip holds one top-level folder: move its content so a half-unpacked tree is never mistaken for a good one.
  mv "$ES_HOME.partial"/elasticsearch-*/* "$ES_HOME.partial"/ && rmdir "$ES_HOME.partial"/elasticsearch-*
  mv "$ES_HOME.partial" "$ES_HOME"
}

# Runs a command as the unprivileged Elasticsearch user when we are root (Elasticsearch refuses root).
as_es() { if as_root; then runuser -u "$ES_USER" -- "$@"; else "$@"; fi; }

# One way to configure a node, whether it is the development node, one of a development cluster or a
# test's private node: writes CONF/elasticsearch.yml (CONF other than the distribution's own config
# folder starts as a copy of it) and makes CONF, DATA and LOGS the Elasticsearch user's.
#   es_configure_node CONF NAME CLUSTER HTTP_PORT TRANSPORT_PORT DATA LOGS [SEED_HOSTS INITIAL_MASTERS]
# An empty TRANSPORT_PORT takes the default range; no SEED_HOSTS means a single-node cluster.
es_configure_node() {
  local conf="$1" name="$2" cluster="$3" http="$4" transport="$5" data="$6" logs="$7" seeds="${8:-}" masters="${9:-}"
  if [ "$conf" != "$ES_HOME/config" ]; then mkdir -p "$conf" && cp -r "$ES_HOME/config/." "$conf/"; fi
  local discovery="discovery.type: single-node"
  [ -n "$seeds" ] && discovery="discovery.seed_hosts: [$seeds]
cluster.initial_master_nodes: [$masters]"
  local transport_line=""
  [ -n "$transport" ] && transport_line="transport.port: $transport"
  cat >"$conf/elasticsearch.yml" <<YML
cluster.name: $cluster
node.name: $name
$discovery
network.host: 127.0.0.1
http.port: $http
$transport_line
path.data: $data
path.logs: $logs
# Tests delete their own indices by prefix.
action.destructive_requires_name: false
# A development disk that is nearly full must not turn indices read-only.
cluster.routing.allocation.disk.threshold_enabled: false
# Loopback-only development node: no TLS, no users (production runs its own secured cluster).
xpack.security.enabled: false
YML
  # Drop anything a start with security auto-configuration left behind (it would contradict the line above).
  rm -rf "$conf/certs" "$conf/elasticsearch.keystore"
  mkdir -p "$data" "$logs"
  if as_root; then
    id "$ES_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" \
      || die "could not create system user $ES_USER (Elasticsearch refuses to run as root)"
    chown -R "$ES_USER" "$ES_HOME" "$conf" "$data" "$logs"
    chmod o+x "$CACHE_DIR"
  fi
}

# Sets ES_CMD to the command that runs a configured node (CONF) with HEAP; extra arguments go to bin/elasticsearch.
# ES_EXTRA_JAVA_OPTS, when set, is added to the JVM options (es-node sets it for test nodes).
es_command() {
  local conf="$1" heap="$2" jdk
  shift 2
  jdk=$(pick_jdk)
  ES_CMD=(env "ES_JAVA_HOME=$jdk" "ES_PATH_CONF=$conf" "ES_JAVA_OPTS=-Xms$heap -Xmx$heap${ES_EXTRA_JAVA_OPTS:+ $ES_EXTRA_JAVA_OPTS}" "$ES_HOME/bin/elasticsearch" "$@")
}

es_health() { curl -fsS -m 5 "http://127.0.0.1:${1:-$ES_PORT}/_cluster/health?wait_for_status=yellow&timeout=4s" >/dev/null 2>&1; }
es_node_count() { curl -fsS -m 5 "http://127.0.0.1:$ES_PORT/_cat/nodes?h=name" 2>/dev/null | grep -c . || true; }

# Starts a configured node as a daemon, recording its pid in PID_FILE.
es_start_daemon() {
  local conf="$1" pid_file="$2" log_name="$3"
  say "starting Elasticsearch $ES_VERSION node $(sed -n 's/^node.name: //p' "$conf/elasticsearch.yml") (heap $ES_HEAP, log $ES_LOG_DIR/$log_name.log)"
  es_command "$conf" "$ES_HEAP" -d -p "$pid_file.tmp"
  rm -f "$pid_file.tmp"
  if as_root; then touch "$pid_file.tmp" && chown "$ES_USER" "$pid_file.tmp" && chmod o+wx "$STATE_DIR"; fi
  as_es "${ES_CMD[@]}" >"$STATE_DIR/es-launch.log" 2>&1 || die "Elasticsearch failed to start; see $ES_LOG_DIR/$log_name.log"
  for _ in $(seq 1 20); do [ -s "$pid_file.tmp" ] && break; sleep 0.5; done
  [ -s "$pid_file.tmp" ] && mv "$pid_file.tmp" "$pid_file"
}

# up --es-nodes N (2 or 3): a development cluster on ES_PORT.. ES_PORT+N-1 (transport ES_PORT+100..: 9300,
# 9301, 9302), its own data folders (a single-node cluster's data cannot join a multi-node one). Every node
# is master-eligible and listed in both the seed hosts and the initial masters: with three, any two form
# a quorum, so losing any one node (the elected master included) leaves a cluster that elects and writes.
es_cluster_start() {
  local count="$1" seeds="" masters="" k
  for k in $(seq 1 "$count"); do
    seeds="$seeds${seeds:+, }127.0.0.1:$((ES_PORT + 99 + k))"
    masters="$masters${masters:+, }dev-node-$k"
  done
  for k in $(seq 1 "$count"); do
    local conf="$CACHE_DIR/es-cluster-config-node$k"
    es_configure_node "$conf" "dev-node-$k" doctor-directory-dev-cluster "$((ES_PORT + k - 1))" "$((ES_PORT + 99 + k))" \
      "$CACHE_DIR/es-cluster-data-$ES_VERSION-node$k" "$ES_LOG_DIR" "$seeds" "$masters"
    es_start_daemon "$conf" "$STATE_DIR/elasticsearch-node$k.pid" doctor-directory-dev-cluster
  done
}

elasticsearch_up() {
  local nodes="$1" log_name=doctor-directory-dev pid_file="$ES_PID_FILE"
  if [ -z "$ES_HEAP" ]; then if [ "$nodes" -gt 1 ]; then ES_HEAP=256m; else ES_HEAP=512m; fi; fi
  if [ "$nodes" -gt 1 ]; then log_name=doctor-directory-dev-cluster; pid_file="$STATE_DIR/elasticsearch-node1.pid"; fi
  if port_open "$ES_PORT"; then
    if es_health; then
      local running
      running=$(es_node_count)
      if [ "$nodes" -gt 1 ] && [ "$running" -lt "$nodes" ]; then
        die "Elasticsearch on 127.0.0.1:$ES_PORT has $running node(s), not $nodes; stop it first (npm run services:down) to start a $nodes-node cluster"
      fi
      say "Elasticsearch answering on 127.0.0.1:$ES_PORT with $running node(s) (reused)"
      return
    fi
    if [ -s "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
      say "Elasticsearch is starting; waiting for health"
    else
      die "port $ES_PORT is taken by something that is not a healthy Elasticsearch; free it or set ES_PORT/ELASTICSEARCH_URL"
    fi
  else
    command -v curl >/dev/null || die "curl is required (apt-get install curl)"
    command -v unzip >/dev/null || die "unzip is required (apt-get install unzip)"
    pick_jdk >/dev/null
    es_fetch
    mkdir -p "$ES_LOG_DIR"
    if [ "$nodes" -gt 1 ]; then
      es_cluster_start "$nodes"
    else
      es_configure_node "$ES_HOME/config" dev-node doctor-directory-dev "$ES_PORT" "" "$ES_DATA" "$ES_LOG_DIR"
      es_start_daemon "$ES_HOME/config" "$ES_PID_FILE" "$log_name"
    fi
    mark_started elasticsearch
  fi
  local deadline=$((SECONDS + HEALTH_TIMEOUT_S))
  while [ $SECONDS -lt $deadline ]; do
    if es_health && [ "$(es_node_count)" -ge "$nodes" ]; then say "Elasticsearch up ($nodes node(s))"; return; fi
    if [ -s "$pid_file" ] && ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
      tail -n 30 "$ES_LOG_DIR/$log_name.log" >&2 2>/dev/null || true
      die "Elasticsearch exited during start-up; log: $ES_LOG_DIR/$log_name.log"
    fi
    sleep 1
  done
  tail -n 30 "$ES_LOG_DIR/$log_name.log" >&2 2>/dev/null || true
  die "Elasticsearch not healthy within ${HEALTH_TIMEOUT_S} s; log: $ES_LOG_DIR/$log_name.log"
}

# es-node: one node in the foreground, for tests that start, kill (SIGKILL) or pause (SIGSTOP) their own
# nodes. Everything lives in DIR (config, data, logs); the caller chooses the ports and the cluster.
es_node() {
  local name="" cluster="" http="" transport="" dir="" seeds="" masters="" heap="256m"
  while [ $# -gt 0 ]; do
    case "$1" in
      --name) name="$2" ;;
      --cluster) cluster="$2" ;;
      --http-port) http="$2" ;;
      --transport-port) transport="$2" ;;
      --dir) dir="$2" ;;
      --seed-hosts) seeds="$2" ;;
      --initial-masters) masters="$2" ;;
      --heap) heap="$2" ;;
      *) die "es-node: unknown option $1" ;;
    esac
    shift 2
  done
  [ -n "$name" ] && [ -n "$cluster" ] && [ -n "$http" ] && [ -n "$transport" ] && [ -n "$dir" ] \
    || die "usage: services.sh es-node --name N --cluster C --http-port P --transport-port T --dir DIR [--seed-hosts h:p,... --initial-masters n,...] [--heap 256m]"
  es_fetch
  es_configure_node "$dir/config" "$name" "$cluster" "$http" "$transport" "$dir/data" "$dir/logs" "$seeds" "$masters"
  # A test's node lives for a minute or two and is started again after each kill: the client compiler
  # alone (no C2) starts it on 14 CPU s instead of 22.5, and in 11 s instead of 14 (one node, quiet 2 cores),
  # and the light loads of the scenarios never need C2's code. The shared node keeps the default JIT.
  ES_EXTRA_JAVA_OPTS="-XX:TieredStopAtLevel=1"
  es_command "$dir/config" "$heap"
  if as_root; then exec runuser -u "$ES_USER" -- "${ES_CMD[@]}"; else exec "${ES_CMD[@]}"; fi
}

elasticsearch_down() {
  local pid_file pid found=0
  if started_elsewhere elasticsearch; then
    say "Elasticsearch was started by $(cat "$STATE_DIR/elasticsearch.started"); left alone"
    return
  fi
  for pid_file in "$ES_PID_FILE" "$STATE_DIR"/elasticsearch-node*.pid; do
    [ -s "$pid_file" ] || continue
    found=1
    pid=$(cat "$pid_file")
    if kill -0 "$pid" 2>/dev/null; then
      say "stopping Elasticsearch (pid $pid)"
      kill "$pid"
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -0 "$pid" 2>/dev/null && { say "Elasticsearch did not stop in 30 s; killing"; kill -9 "$pid"; }
    fi
    rm -f "$pid_file"
  done
  rm -f "$STATE_DIR/elasticsearch.started"
  [ "$found" = 1 ] || say "Elasticsearch was not started by this script; left alone"
}

redis_down() {
  started_here redis || { say "Redis was not started by this checkout's services.sh; left alone"; return; }
  say "stopping Redis"
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  rm -f "$STATE_DIR/redis.started"
}

postgres_down() {
  started_here postgres || { say "PostgreSQL was not started by this checkout's services.sh; left alone"; return; }
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  say "stopping PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main stop || true
  rm -f "$STATE_DIR/postgres.started"
}

status() {
  port_open "$PG_PORT" && say "PostgreSQL: up" || say "PostgreSQL: down"
  port_open "$REDIS_PORT" && say "Redis: up" || say "Redis: down"
  es_health && say "Elasticsearch: up" || say "Elasticsearch: down"
}

# up [--es-nodes N] [--servers-only]: N Elasticsearch nodes forming one cluster (default 1; 2 or 3 to try
# replicas and node loss; 3 is the smallest cluster that survives losing its elected master);
# --servers-only leaves the test tools alone. Sets UP_NODES and UP_TEST_TOOLS.
up_options() {
  UP_NODES=1
  UP_TEST_TOOLS=yes
  while [ $# -gt 0 ]; do
    case "$1" in
      --es-nodes) UP_NODES="${2:-}"; shift 2 ;;
      --servers-only) UP_TEST_TOOLS=no; shift ;;
      *) die "up: unknown option $1 (usage: services.sh up [--es-nodes N] [--servers-only])" ;;
    esac
  done
  [[ "$UP_NODES" =~ ^[1-3]$ ]] || die "--es-nodes must be 1, 2 or 3"
}

# Sourced (`source services.sh`, as a spec does to check the functions above): define, run nothing.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then return 0; fi

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
  up)
    up_options "$@"
    ensure_dirs
    # First, so a machine that cannot get them stops before any server starts.
    if [ "$UP_TEST_TOOLS" = yes ]; then test_tools_up; fi
    postgres_up; redis_up; elasticsearch_up "$UP_NODES"
    ;;
  es-node) ensure_dirs; es_node "$@" ;;
  down) ensure_dirs; elasticsearch_down; redis_down; postgres_down ;;
  status) status ;;
  *) die "usage: services.sh up [--es-nodes N] [--servers-only]|down|status|es-node ..." ;;
esac
