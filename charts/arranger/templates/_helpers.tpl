{{/*
Names and labels shared by every template. A component's templates take a context
{root: $, name: "scheduler"|"controller", values: .Values.<name>}.
*/}}

{{- define "arranger.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The prefix of every resource name: the release name, plus the chart name unless it is already in it. */}}
{{- define "arranger.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "arranger.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* <fullname>-<component>, e.g. arranger-scheduler. Context: {root, name}. */}}
{{- define "arranger.componentName" -}}
{{- printf "%s-%s" (include "arranger.fullname" .root | trunc 52 | trimSuffix "-") .name }}
{{- end }}

{{/* Labels that select a component's pods; never change them, Deployments' selectors are immutable. */}}
{{- define "arranger.selectorLabels" -}}
app.kubernetes.io/name: {{ include "arranger.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/* Labels of every resource of a component. Context: {root, name}. */}}
{{- define "arranger.labels" -}}
helm.sh/chart: {{ include "arranger.chart" .root }}
{{ include "arranger.selectorLabels" . }}
app.kubernetes.io/part-of: arranger
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The component's ServiceAccount name. Context: {root, name, values}. */}}
{{- define "arranger.serviceAccountName" -}}
{{- if .values.serviceAccount.create }}
{{- default (include "arranger.componentName" .) .values.serviceAccount.name }}
{{- else }}
{{- required (printf "%s.serviceAccount.name is required when %s.serviceAccount.create is false" .name .name) .values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* repository:tag, the tag defaulting to the chart's appVersion. Context: {root, values}. */}}
{{- define "arranger.image" -}}
{{- printf "%s:%s" .values.image.repository (default .root.Chart.AppVersion .values.image.tag) }}
{{- end }}

{{/* PodDisruptionBudget's API: policy/v1 from Kubernetes 1.21, policy/v1beta1 before. */}}
{{- define "arranger.pdbApiVersion" -}}
{{- if semverCompare ">=1.21-0" .Capabilities.KubeVersion.Version -}}
policy/v1
{{- else -}}
policy/v1beta1
{{- end }}
{{- end }}
