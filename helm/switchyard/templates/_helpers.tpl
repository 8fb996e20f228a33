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
