{{- /*
The environment of each component, one `- name:` per variable, before extraEnv (global, then the
service's). tools/architecture/src/helm-chart.int.spec.ts reads these blocks: every name must be a
key of that service's config schema (services/<name>/src/<name>.config.ts) or a variable read
outside it, and every required key must be here. Called with (dict "root" $ "name" <service> "service" <its values>).
*/ -}}

{{- /* Every Switchyard process: its listeners (HTTP, metrics), logs and NATS. */ -}}
{{- define "switchyard.env.common" -}}
- name: SWITCHYARD_SERVICE
  value: {{ .name | quote }}
- name: HOST
  value: "0.0.0.0"
- name: PORT
  value: {{ .service.port | quote }}
{{- if .root.Values.metrics.enabled }}
- name: METRICS_PORT
  value: {{ .root.Values.metrics.port | quote }}
{{- end }}
- name: LOG_LEVEL
  value: {{ .root.Values.logLevel | quote }}
- name: NATS_URL
  value: {{ include "switchyard.natsUrl" .root | quote }}
{{- if .root.Values.namespace }}
- name: SWITCHYARD_NAMESPACE
  value: {{ .root.Values.namespace | quote }}
{{- end }}
{{- if .root.Values.bus.tls.caSecret }}
- name: NODE_EXTRA_CA_CERTS
  value: {{ printf "/etc/switchyard-bus-ca/%s" .root.Values.bus.tls.caKey | quote }}
{{- end }}
{{- end -}}

{{- /* The four services: a bus user of their own, Postgres, and the streams they provision. */ -}}
{{- define "switchyard.env.busService" -}}
{{ include "switchyard.env.common" . }}
- name: NATS_CREDENTIALS_FILE
  value: {{ printf "/etc/switchyard-bus/%s.creds" .name | quote }}
{{ include "switchyard.env.database" . }}
{{- with include "switchyard.streamMaxBytesCap" .root }}
- name: SWITCHYARD_STREAM_MAX_BYTES_CAP
  value: {{ . | quote }}
{{- end }}
{{- end -}}

{{- define "switchyard.env.database" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: { name: {{ include "switchyard.databaseSecret" .root | quote }}, key: DATABASE_URL }
{{- end -}}

{{- define "switchyard.env.gateway" -}}
{{ include "switchyard.env.busService" . }}
- name: GATEWAY_ENROLLMENT_AUTHORITY_FILE
  value: /etc/switchyard-bus/enrollment-authority.json
- name: GATEWAY_SECRET_KEYS
  valueFrom:
    secretKeyRef: { name: {{ include "switchyard.secretsSecret" .root | quote }}, key: GATEWAY_SECRET_KEYS }
{{- if .root.Values.secrets.bootstrapToken }}
- name: GATEWAY_BOOTSTRAP_TOKEN
  valueFrom:
    secretKeyRef: { name: {{ include "switchyard.secretsSecret" .root | quote }}, key: GATEWAY_BOOTSTRAP_TOKEN }
{{- end }}
{{- with include "switchyard.publicUrl" .root }}
- name: GATEWAY_PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- with .service.oidc }}
{{- if .issuer }}
- name: GATEWAY_OIDC_ISSUER
  value: {{ .issuer | quote }}
- name: GATEWAY_OIDC_CLIENT_ID
  value: {{ required "services.gateway.oidc.clientId is required with oidc.issuer" .clientId | quote }}
- name: GATEWAY_OIDC_CLIENT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ default (include "switchyard.secretsSecret" $.root) .existingSecret | quote }}
      key: GATEWAY_OIDC_CLIENT_SECRET
{{- end }}
{{- end }}
{{- end -}}

{{- define "switchyard.env.queue" -}}
{{ include "switchyard.env.busService" . }}
- name: QUEUE_TASK_TOKEN_SECRET
  valueFrom:
    secretKeyRef: { name: {{ include "switchyard.secretsSecret" .root | quote }}, key: QUEUE_TASK_TOKEN_SECRET }
- name: QUEUE_SECRET_KEYS
  valueFrom:
    secretKeyRef: { name: {{ include "switchyard.secretsSecret" .root | quote }}, key: QUEUE_SECRET_KEYS }
{{- end -}}

{{- define "switchyard.env.transcript" -}}
{{ include "switchyard.env.busService" . }}
{{- end -}}

{{- define "switchyard.env.session-resume" -}}
{{ include "switchyard.env.busService" . }}
{{- end -}}

{{- /*
The daemon has no service user: it enrolls through the gateway's Service with a one-time token on
its first boot and keeps the identity (DAEMON_ID, its .creds) in its home, the volume.
*/ -}}
{{- define "switchyard.env.daemon" -}}
{{ include "switchyard.env.common" . }}
- name: SWITCHYARD_HOME
  value: /var/lib/switchyard/daemon
- name: DAEMON_GATEWAY_URL
  value: {{ include "switchyard.gatewayUrl" .root | quote }}
{{- with .service.enrollment.existingSecret }}
- name: DAEMON_ENROLLMENT_TOKEN
  valueFrom:
    secretKeyRef: { name: {{ . | quote }}, key: DAEMON_ENROLLMENT_TOKEN, optional: true }
{{- end }}
{{- end -}}

{{- /* The pre-install/pre-upgrade migration Job (libs/persistence/src/migrate.main.ts). */ -}}
{{- define "switchyard.env.migrate" -}}
{{ include "switchyard.env.database" . }}
{{- end -}}

{{- /*
A component's environment: the chart's, then extraEnv, global then the service's. A name given
again replaces the earlier entry rather than repeating it: a strategic merge patch keys env by name.
*/ -}}
{{- define "switchyard.env" -}}
{{- $service := default (list) .service.extraEnv -}}
{{- $global := default (list) .root.Values.extraEnv -}}
{{- $env := list -}}
{{- range concat (include (printf "switchyard.env.%s" .name) . | fromYamlArray) $global $service -}}
{{- $name := .name -}}
{{- $kept := list -}}
{{- range $env }}{{ if ne .name $name }}{{ $kept = append $kept . }}{{ end }}{{ end -}}
{{- $env = append $kept . -}}
{{- end -}}
{{- toYaml $env -}}
{{- end -}}
