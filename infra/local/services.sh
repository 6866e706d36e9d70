#!/usr/bin/env bash
# Make PostgreSQL, Redis and Elasticsearch reachable on loopback for development and tests.
#   services.sh up    reuse what already answers, start the rest, wait until healthy
#   services.sh down  stop only what `up` started
#   services.sh status
# Every failure names its cause and exits non-zero; every wait is bounded.
set -euo pipefail

ES_VERSION="8.19.21"
ES_PORT="${ES_PORT:-9200}"
ES_HEAP="${ES_HEAP:-512m}"
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

ensure_dirs() {
  if ! mkdir -p "$STATE_DIR" 2>/dev/null; then
    die "cannot create $CACHE_DIR; set DIRECTORY_CACHE_DIR to a writable folder"
  fi
}

# ---------- PostgreSQL ----------
postgres_up() {
  if port_open "$PG_PORT"; then say "PostgreSQL answering on 127.0.0.1:$PG_PORT (reused)"; return; fi
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    local version
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    say "starting PostgreSQL $version (pg_ctlcluster)"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || die "pg_ctlcluster failed to start PostgreSQL $version main"
    touch "$STATE_DIR/postgres.started"
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
  touch "$STATE_DIR/redis.started"
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

es_configure() {
  cat >"$ES_HOME/config/elasticsearch.yml" <<YML
cluster.name: doctor-directory-dev
node.name: dev-node
discovery.type: single-node
network.host: 127.0.0.1
http.port: $ES_PORT
path.data: $ES_DATA
path.logs: $ES_LOG_DIR
# Tests delete their own indices by prefix.
action.destructive_requires_name: false
# A development disk that is nearly full must not turn indices read-only.
cluster.routing.allocation.disk.threshold_enabled: false
# Loopback-only development node: no TLS, no users (production runs its own secured cluster).
xpack.security.enabled: false
YML
  # Drop anything a start with security auto-configuration left behind (it would contradict the line above).
  rm -rf "$ES_HOME/config/certs" "$ES_HOME/config/elasticsearch.keystore"
  mkdir -p "$ES_DATA" "$ES_LOG_DIR"
  if as_root; then
    id "$ES_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" \
      || die "could not create system user $ES_USER (Elasticsearch refuses to run as root)"
    chown -R "$ES_USER" "$ES_HOME" "$ES_DATA" "$ES_LOG_DIR"
    chmod o+x "$CACHE_DIR"
  fi
}

es_health() { curl -fsS -m 5 "http://127.0.0.1:$ES_PORT/_cluster/health?wait_for_status=yellow&timeout=4s" >/dev/null 2>&1; }

elasticsearch_up() {
  if port_open "$ES_PORT"; then
    if es_health; then say "Elasticsearch answering on 127.0.0.1:$ES_PORT (reused)"; return; fi
    if [ -s "$ES_PID_FILE" ] && kill -0 "$(cat "$ES_PID_FILE")" 2>/dev/null; then
      say "Elasticsearch is starting; waiting for health"
    else
      die "port $ES_PORT is taken by something that is not a healthy Elasticsearch; free it or set ES_PORT/ELASTICSEARCH_URL"
    fi
  else
    command -v curl >/dev/null || die "curl is required (apt-get install curl)"
    command -v unzip >/dev/null || die "unzip is required (apt-get install unzip)"
    local jdk
    jdk=$(pick_jdk)
    es_fetch
    es_configure
    say "starting Elasticsearch $ES_VERSION on 127.0.0.1:$ES_PORT (JDK $jdk, heap $ES_HEAP, log $ES_LOG_DIR)"
    local cmd=(env "ES_JAVA_HOME=$jdk" "ES_JAVA_OPTS=-Xms$ES_HEAP -Xmx$ES_HEAP" "$ES_HOME/bin/elasticsearch" -d -p "$ES_PID_FILE.tmp")
    rm -f "$ES_PID_FILE.tmp"
    if as_root; then
      touch "$ES_PID_FILE.tmp" && chown "$ES_USER" "$ES_PID_FILE.tmp" && chmod o+wx "$STATE_DIR"
      runuser -u "$ES_USER" -- "${cmd[@]}" >"$STATE_DIR/es-launch.log" 2>&1 || die "Elasticsearch failed to start; see $ES_LOG_DIR/doctor-directory-dev.log"
    else
      "${cmd[@]}" >"$STATE_DIR/es-launch.log" 2>&1 || die "Elasticsearch failed to start; see $ES_LOG_DIR/doctor-directory-dev.log"
    fi
    for _ in $(seq 1 20); do [ -s "$ES_PID_FILE.tmp" ] && break; sleep 0.5; done
    [ -s "$ES_PID_FILE.tmp" ] && mv "$ES_PID_FILE.tmp" "$ES_PID_FILE"
  fi
  local deadline=$((SECONDS + HEALTH_TIMEOUT_S))
  while [ $SECONDS -lt $deadline ]; do
    if es_health; then say "Elasticsearch up"; return; fi
    if [ -s "$ES_PID_FILE" ] && ! kill -0 "$(cat "$ES_PID_FILE")" 2>/dev/null; then
      tail -n 30 "$ES_LOG_DIR/doctor-directory-dev.log" >&2 2>/dev/null || true
      die "Elasticsearch exited during start-up; log: $ES_LOG_DIR/doctor-directory-dev.log"
    fi
    sleep 1
  done
  tail -n 30 "$ES_LOG_DIR/doctor-directory-dev.log" >&2 2>/dev/null || true
  die "Elasticsearch not healthy within ${HEALTH_TIMEOUT_S} s; log: $ES_LOG_DIR/doctor-directory-dev.log"
}

elasticsearch_down() {
  [ -s "$ES_PID_FILE" ] || { say "Elasticsearch was not started by this script; left alone"; return; }
  local pid
  pid=$(cat "$ES_PID_FILE")
  if kill -0 "$pid" 2>/dev/null; then
    say "stopping Elasticsearch (pid $pid)"
    kill "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && { say "Elasticsearch did not stop in 30 s; killing"; kill -9 "$pid"; }
  fi
  rm -f "$ES_PID_FILE"
}

redis_down() {
  [ -f "$STATE_DIR/redis.started" ] || { say "Redis was not started by this script; left alone"; return; }
  say "stopping Redis"
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  rm -f "$STATE_DIR/redis.started"
}

postgres_down() {
  [ -f "$STATE_DIR/postgres.started" ] || { say "PostgreSQL was not started by this script; left alone"; return; }
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

case "${1:-}" in
  up) ensure_dirs; postgres_up; redis_up; elasticsearch_up ;;
  down) ensure_dirs; elasticsearch_down; redis_down; postgres_down ;;
  status) status ;;
  *) die "usage: services.sh up|down|status" ;;
esac
