{{- define "switchyard.fullname" -}}
{{- printf "%s-switchyard" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "switchyard.image" -}}
{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}

{{- define "switchyard.natsUrl" -}}
{{- if .Values.nats.enabled -}}
nats://{{ .Release.Name }}-nats:4222
{{- else -}}
{{ required "externalNats.url is required when nats.enabled=false" .Values.externalNats.url }}
{{- end -}}
{{- end -}}

{{- define "switchyard.databaseSecret" -}}
{{- default (printf "%s-database" (include "switchyard.fullname" .)) .Values.database.existingSecret -}}
{{- end -}}

{{- define "switchyard.labels" -}}
app.kubernetes.io/part-of: switchyard
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- /* The services with a bus user of their own in the bus Secret (SERVICE_IDENTITIES). */ -}}
{{- define "switchyard.busServices" -}}
gateway queue session-resume transcript
{{- end -}}

{{- define "switchyard.gatewayUrl" -}}
http://{{ printf "%s-gateway" (include "switchyard.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end -}}

{{- /*
Fails the render when the bus settings cannot work: no bus Secret, the bundled NATS mounting
another Secret than the services, or TLS asked for on a bundled NATS that does not serve it.
*/ -}}
{{- define "switchyard.checkBus" -}}
{{- $secret := required "bus.existingSecret is required: the Secret made from `npm run bus -- init` (docs/operations/deploy.md)" .Values.bus.existingSecret -}}
{{- if .Values.nats.enabled -}}
{{- $mounted := "" -}}
{{- range (dig "podTemplate" "patch" (list) .Values.nats) -}}
{{- if kindIs "map" . -}}
{{- if kindIs "map" .value -}}
{{- if eq (toString (.value.name | default "")) "switchyard-bus" -}}
{{- $mounted = dig "secret" "secretName" "" .value -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if ne $mounted $secret -}}
{{- fail (printf "nats.podTemplate.patch mounts Secret %q as switchyard-bus, but bus.existingSecret is %q: NATS and the services must use the same Secret" $mounted $secret) -}}
{{- end -}}
{{- if and .Values.bus.tls.enabled (not (dig "config" "nats" "tls" "enabled" false .Values.nats)) -}}
{{- fail "bus.tls.enabled needs the bundled NATS to serve TLS: set nats.config.nats.tls.enabled and nats.config.nats.tls.secretName" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The Secret with the services' own keys (QUEUE_TASK_TOKEN_SECRET, QUEUE_SECRET_KEYS, GATEWAY_SECRET_KEYS). */}}
{{- define "switchyard.secretsSecret" -}}
{{ required "secrets.existingSecret is required: a Secret with QUEUE_TASK_TOKEN_SECRET, QUEUE_SECRET_KEYS and GATEWAY_SECRET_KEYS (docs/operations/deploy.md)" .Values.secrets.existingSecret }}
{{- end -}}
