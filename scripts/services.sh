#!/usr/bin/env bash
# Starts the services that the idempotency module's store tests talk to: a PostgreSQL cluster
# and a redis-server, both on loopback, on their own ports and data directories so they never
# touch a system instance. It installs the Debian packages when they are missing, is safe to run
# again (a service that already answers is left alone), and prints only `export` lines on
# stdout so a caller can do:
#
#   eval "$(scripts/services.sh)"
#
# Every progress message goes to stderr.
#
#   scripts/services.sh stop     stops the two servers this script starts (its ports and data
#                                directories only), and leaves their data for the next start
#   scripts/services.sh status   exits 0 when both answer
set -euo pipefail

root=${IDEMPOTENCY_SERVICES_DIR:-${TMPDIR:-/tmp}/idemlint-services}
pg_port=${IDEMPOTENCY_PG_PORT:-55432}
redis_port=${IDEMPOTENCY_REDIS_PORT:-56379}
db=idempotency_test

log() { printf 'services: %s\n' "$*" >&2; }

pg_bindir() {
  # Debian keeps each major version's server binaries apart; take the newest installed.
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

install_missing() {
  local pkgs=()
  [ -n "$(pg_bindir)" ] && [ -x "$(pg_bindir)/initdb" ] || pkgs+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || pkgs+=(redis-server)
  [ ${#pkgs[@]} -eq 0 ] && return 0
  log "installing ${pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
}

# as_pg runs a command as the user that owns the cluster: initdb and postgres refuse root.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  local bin data sock
  bin=$(pg_bindir)
  data=$root/postgres
  sock=$root/postgres-socket
  if "$bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"; then
    log "postgres already answers on 127.0.0.1:$pg_port"
  else
    mkdir -p "$root" "$sock"
    if [ "$(id -u)" -eq 0 ]; then
      chmod 755 "$root"
      chown postgres:postgres "$sock"
    fi
    if [ ! -s "$data/PG_VERSION" ]; then
      log "initialising a cluster in $data"
      rm -rf "$data"
      mkdir -p "$data"
      [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$data"
      as_pg "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >&2
    fi
    # A server killed without a shutdown (a session ending, a killed CI job) leaves its
    # postmaster.pid behind, and pg_ctl then refuses to start: remove it when its process is
    # gone or is not this cluster's server.
    if [ -f "$data/postmaster.pid" ]; then
      local pid
      pid=$(head -n 1 "$data/postmaster.pid")
      if ! [ -r "/proc/$pid/cmdline" ] || ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$data"; then
        log "removing the stale postmaster.pid of a server that is gone (pid $pid)"
        rm -f "$data/postmaster.pid" "$sock"/.s.PGSQL.*
      fi
    fi
    log "starting postgres on 127.0.0.1:$pg_port"
    # Durability settings are off: this cluster holds throwaway test data only.
    as_pg "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 start \
      -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
  fi
  local i
  for i in $(seq 1 60); do
    "$bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port" && break
    sleep 1
  done
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port" || { log "postgres did not answer"; exit 1; }
  if [ "$(psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
    log "creating database $db"
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qc "CREATE DATABASE $db" >&2
  fi
}

start_redis() {
  local dir=$root/redis
  if redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG; then
    log "redis already answers on 127.0.0.1:$redis_port"
    return 0
  fi
  mkdir -p "$dir"
  log "starting redis on 127.0.0.1:$redis_port"
  # No persistence: test data only.
  redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes --dir "$dir" \
    --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --save '' --appendonly no >&2
  local i
  for i in $(seq 1 60); do
    redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG && return 0
    sleep 0.5
  done
  log "redis did not answer"
  exit 1
}

stop_services() {
  local bin
  bin=$(pg_bindir)
  if [ -n "$bin" ] && [ -s "$root/postgres/postmaster.pid" ]; then
    log "stopping postgres on 127.0.0.1:$pg_port"
    (cd "$root" && as_pg "$bin/pg_ctl" -D "$root/postgres" -m fast -w stop >&2) || true
  fi
  if command -v redis-cli >/dev/null 2>&1 && redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG; then
    log "stopping redis on 127.0.0.1:$redis_port"
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true
  fi
}

answering() {
  local bin
  bin=$(pg_bindir)
  [ -n "$bin" ] && "$bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port" &&
    redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG
}

case "${1:-start}" in
  start) ;;
  stop) stop_services; exit 0 ;;
  status) answering; exit $? ;;
  *) log "usage: $0 [start|stop|status]"; exit 2 ;;
esac

install_missing
mkdir -p "$root"
# The cluster's commands run as the postgres user, who may not be allowed into the caller's
# directory; work from ours.
cd "$root"
start_postgres
start_redis

echo "export IDEMPOTENCY_TEST_POSTGRES_DSN='postgres://postgres@127.0.0.1:$pg_port/$db?sslmode=disable'"
echo "export IDEMPOTENCY_TEST_REDIS_ADDR='127.0.0.1:$redis_port'"
