#!/usr/bin/env bash
# Make sure PostgreSQL (127.0.0.1:5432, trust auth) and Redis (127.0.0.1:6379) answer, for the
# service tests. Starts them where installed but stopped; installs them from the OS packages
# where missing (root only). Prints what it did; exits non-zero if they still do not answer.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
pg_ok() { command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q; }
redis_ok() { command -v redis-cli >/dev/null && [ "$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" = PONG ]; }

if ! pg_ok; then
  if [ "$(id -u)" != 0 ]; then echo "PostgreSQL is not answering on 127.0.0.1:5432 (see README)" >&2; exit 1; fi
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  fi
  ver=$(ls /etc/postgresql | sort -V | tail -1)
  conf=/etc/postgresql/$ver/main
  # trust on loopback, as the tests expect (a throwaway CI or dev database)
  grep -q "kgrade-ci" "$conf/pg_hba.conf" || sed -i '1i host all all 127.0.0.1/32 trust # kgrade-ci' "$conf/pg_hba.conf"
  pg_ctlcluster --skip-systemctl-redirect "$ver" main start || pg_ctlcluster --skip-systemctl-redirect "$ver" main restart
  for _ in $(seq 30); do pg_ok && break; sleep 1; done
  echo "started PostgreSQL $ver"
fi
if ! redis_ok; then
  if [ "$(id -u)" != 0 ]; then echo "Redis is not answering on 127.0.0.1:6379 (see README)" >&2; exit 1; fi
  command -v redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; }
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/kgrade-ci.log
  for _ in $(seq 30); do redis_ok && break; sleep 1; done
  echo "started Redis"
fi
pg_ok && redis_ok
