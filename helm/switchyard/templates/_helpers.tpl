{{- define "switchyard.fullname" -}}
{{- printf "%s-switchyard" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "switchyard.componentName" -}}
{{- printf "%s-%s" (include "switchyard.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- /* The image of a component: the daemon's carries the agent CLIs (the Dockerfile's `daemon` target). */ -}}
{{- define "switchyard.image" -}}
{{- $image := .root.Values.image -}}
{{ ternary $image.daemonRepository $image.repository (eq .component "daemon") }}:{{ default .root.Chart.AppVersion $image.tag }}
{{- end -}}

{{- define "switchyard.labels" -}}
app.kubernetes.io/part-of: switchyard
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "switchyard.selectorLabels" -}}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/name: {{ .name }}
{{- end -}}

{{- /* The services with a bus user of their own in the bus Secret (SERVICE_IDENTITIES). */ -}}
{{- define "switchyard.busServices" -}}
gateway queue session-resume transcript
{{- end -}}

{{- define "switchyard.natsName" -}}
{{- printf "%s-nats" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "switchyard.natsUrl" -}}
{{- if .Values.nats.enabled -}}
nats://{{ include "switchyard.natsName" . }}:4222
{{- else -}}
{{ required "nats.url is required when nats.enabled=false: the external NATS (docs/operations/deploy.md)" .Values.nats.url }}
{{- end -}}
{{- end -}}

{{- define "switchyard.gatewayUrl" -}}
http://{{ include "switchyard.componentName" (dict "root" . "name" "gateway") }}
{{- end -}}

{{- /* Where people reach the gateway: services.gateway.publicUrl, else the Ingress host. */ -}}
{{- define "switchyard.publicUrl" -}}
{{- if .Values.services.gateway.publicUrl -}}
{{ .Values.services.gateway.publicUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.host -}}
{{ ternary "https" "http" .Values.ingress.tls.enabled }}://{{ .Values.ingress.host }}
{{- end -}}
{{- end -}}

{{- define "switchyard.databaseSecret" -}}
{{- default (printf "%s-database" (include "switchyard.fullname" .)) .Values.database.existingSecret -}}
{{- end -}}

{{- /* The Secret with the services' own keys: yours (secrets.existingSecret) or the chart's. */ -}}
{{- define "switchyard.secretsSecret" -}}
{{- default (printf "%s-secrets" (include "switchyard.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- /*
A base64url 32-byte key, as QUEUE_SECRET_KEYS and GATEWAY_SECRET_KEYS take it (43 characters, no
padding: parseSecretKeys refuses anything else). randBytes gives standard base64.
*/ -}}
{{- define "switchyard.randomKey" -}}
{{- randBytes 32 | trimSuffix "=" | replace "+" "-" | replace "/" "_" -}}
{{- end -}}

{{- /*
A Kubernetes quantity in bytes: a whole number with Ki, Mi, Gi or Ti, or none (the schema allows
no other form, so the arithmetic below stays exact).
*/ -}}
{{- define "switchyard.bytes" -}}
{{- $quantity := toString . -}}
{{- $suffix := regexFind "(Ki|Mi|Gi|Ti)$" $quantity -}}
{{- $units := dict "" 1 "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 -}}
{{- mul (int64 (trimSuffix $suffix $quantity)) (get $units $suffix) -}}
{{- end -}}

{{- /*
Fails the render when the bus settings cannot work: no bus Secret, or clients told to trust a CA
for a bundled NATS that serves no TLS.
*/ -}}
{{- define "switchyard.checkBus" -}}
{{- $_ := required "bus.existingSecret is required: the Secret made from `npm run bus -- init` (docs/operations/deploy.md)" .Values.bus.existingSecret -}}
{{- if and .Values.nats.enabled .Values.nats.tls.enabled (not .Values.nats.tls.secretName) -}}
{{- fail "nats.tls.enabled needs nats.tls.secretName: a kubernetes.io/tls Secret whose certificate names the NATS Service" -}}
{{- end -}}
{{- end -}}

{{- define "switchyard.podSecurity" -}}
automountServiceAccountToken: false
securityContext: {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets: {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
