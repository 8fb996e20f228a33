{{- /*
The max_bytes of the catalog's streams (libs/contracts/src/stream-catalog.ts) and of one
workspace's skills bucket (WORKSPACE_OBJECT_STORE_CATALOG in object-store-catalog.ts). JetStream
reserves them on every server that holds a replica, up front. helm-chart.int.spec.ts keeps these
equal to the catalog.
*/ -}}
{{- define "switchyard.streamCatalog" -}}
TASK_EVENTS: 10Gi
RUNTIME_EVENTS: 1Gi
SESSION_EVENTS: 1Gi
DEAD_LETTERS: 2Gi
{{- end -}}

{{- define "switchyard.workspaceBucketSize" -}}
128Mi
{{- end -}}

{{- /* SWITCHYARD_STREAM_MAX_BYTES_CAP in bytes, or empty for none. */ -}}
{{- define "switchyard.streamMaxBytesCap" -}}
{{- with .Values.nats.jetstream.streamMaxBytesCap -}}
{{ include "switchyard.bytes" . }}
{{- end -}}
{{- end -}}

{{- /*
What the services ask one server to reserve: every stream at its capped size, and the skills
buckets of nats.jetstream.workspaceBuckets workspaces (one each, created on first use).
*/ -}}
{{- define "switchyard.reservedBytes" -}}
{{- $cap := include "switchyard.streamMaxBytesCap" . -}}
{{- $total := int64 0 -}}
{{- range $name, $size := (include "switchyard.streamCatalog" . | fromYaml) -}}
{{- $bytes := int64 (include "switchyard.bytes" $size) -}}
{{- if $cap }}{{ $bytes = min $bytes (int64 $cap) }}{{ end -}}
{{- $total = add $total $bytes -}}
{{- end -}}
{{- $bucket := int64 (include "switchyard.bytes" (include "switchyard.workspaceBucketSize" .)) -}}
{{- if $cap }}{{ $bucket = min $bucket (int64 $cap) }}{{ end -}}
{{- add $total (mul $bucket (int64 .Values.nats.jetstream.workspaceBuckets)) -}}
{{- end -}}

{{- /*
Fails the render when the bundled NATS could not hold what the services reserve: a stream that
does not fit is refused at boot (insufficient storage), and the services never become ready.
*/ -}}
{{- define "switchyard.checkStreamSizing" -}}
{{- if .Values.nats.enabled -}}
{{- $jetstream := .Values.nats.jetstream -}}
{{- $volume := int64 (include "switchyard.bytes" $jetstream.fileStore.size) -}}
{{- $store := int64 (include "switchyard.bytes" $jetstream.maxFileStore) -}}
{{- $reserved := int64 (include "switchyard.reservedBytes" .) -}}
{{- if gt $store $volume -}}
{{- fail (printf "nats.jetstream.maxFileStore (%s) is larger than its volume, nats.jetstream.fileStore.size (%s)" $jetstream.maxFileStore $jetstream.fileStore.size) -}}
{{- end -}}
{{- if gt $reserved $store -}}
{{- fail (printf "the streams and %d workspaces' skills buckets reserve %d MiB per NATS server, more than nats.jetstream.maxFileStore (%s): lower nats.jetstream.streamMaxBytesCap or grow the volume (docs/operations/deploy.md, Sizing)" (int64 $jetstream.workspaceBuckets) (div $reserved 1048576) $jetstream.maxFileStore) -}}
{{- end -}}
{{- end -}}
{{- end -}}
