#!/bin/sh
# Compose's one-shot `daemon-enrollment`: on the first start, asks the gateway for a one-time
# enrollment token with the workspace's API token and enrolls the daemon's home with it (the
# daemon's keys are made here, in that home, 0600). Once the home holds an identity it does nothing.
# Needs SWITCHYARD_HOME, DAEMON_GATEWAY_URL and SWITCHYARD_API_TOKEN; DAEMON_NAME is optional.
# Run from the image's /app (or a built clone): the paths below are relative to it.
set -eu
if [ -f "$SWITCHYARD_HOME/identity/identity.json" ]; then
  echo "daemon-enrollment: $SWITCHYARD_HOME already holds an enrolled daemon; nothing to do"
  exit 0
fi
DAEMON_ENROLLMENT_TOKEN="$(node dist/tools/bus-setup/src/main.js enrollment-token --gateway "$DAEMON_GATEWAY_URL")"
export DAEMON_ENROLLMENT_TOKEN
if [ -n "${DAEMON_NAME:-}" ]; then set -- --name "$DAEMON_NAME"; else set --; fi
exec node dist/services/daemon/src/main.js enroll --gateway "$DAEMON_GATEWAY_URL" "$@"
