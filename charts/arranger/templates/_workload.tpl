{{/*
The resources both services have in the same shape: ServiceAccount, Deployment, Service,
PodDisruptionBudget and ServiceMonitor. Each takes a context {root: $, name, values}; what differs
between the services (their environment) comes from the template "arranger.<name>.env".
*/}}

{{- define "arranger.serviceAccount" -}}
{{- if .values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "arranger.serviceAccountName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "arranger.labels" . | nindent 4 }}
  {{- with .values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
# The services reach the API server with the in-cluster configuration, from this token.
automountServiceAccountToken: true
{{- end }}
{{- end }}

{{- define "arranger.deployment" -}}
{{- $root := .root }}
{{- if and (gt (int .values.replicaCount) 1) (not $root.Values.leaderElection.enabled) }}
{{- fail (printf "%s.replicaCount is %d but leaderElection.enabled is false: more than one active %s would act twice on the same jobs" .name (int .values.replicaCount) .name) }}
{{- end }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "arranger.componentName" . }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "arranger.labels" . | nindent 4 }}
spec:
  replicas: {{ .values.replicaCount }}
  selector:
    matchLabels:
      {{- include "arranger.selectorLabels" . | nindent 6 }}
  strategy:
    # Start the new replica before stopping an old one: the Lease moves to a warm standby.
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        {{- include "arranger.labels" . | nindent 8 }}
        {{- with .values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with .values.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "arranger.serviceAccountName" . }}
      automountServiceAccountToken: true
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      containers:
        - name: {{ .name }}
          image: {{ include "arranger.image" . | quote }}
          imagePullPolicy: {{ .values.image.pullPolicy }}
          ports:
            # Actuator (probes, /actuator/prometheus), on a port of its own: nothing user-facing ever
            # shares this port (the scheduler's view has its own, below).
            - name: management
              containerPort: {{ $root.Values.management.port }}
              protocol: TCP
            {{- with .values.view }}
            # The operator's window (server.port): the page and its API, behind Kubernetes sign-in.
            - name: view
              containerPort: {{ .port }}
              protocol: TCP
            {{- end }}
          env:
            # The pod's namespace: where its Lease (and the scheduler's ConfigMap) live.
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
            # The pod's name, which is also its HOSTNAME: the leader-election identity, unique per replica.
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
            # Leader election (arranger.leader-election.*). Spring's relaxed binding maps
            # ARRANGER_LEADERELECTION_LEASENAME to lease-name: underscores separate, dashes are dropped.
            - name: ARRANGER_LEADERELECTION_IDENTITY
              value: "$(POD_NAME)"
            - name: ARRANGER_LEADERELECTION_ENABLED
              value: {{ $root.Values.leaderElection.enabled | quote }}
            - name: ARRANGER_LEADERELECTION_LEASENAME
              value: {{ .values.leaseName | quote }}
            - name: ARRANGER_LEADERELECTION_LEASENAMESPACE
              value: "$(POD_NAMESPACE)"
            - name: ARRANGER_LEADERELECTION_LEASEDURATION
              value: {{ $root.Values.leaderElection.leaseDuration | quote }}
            - name: ARRANGER_LEADERELECTION_RENEWDEADLINE
              value: {{ $root.Values.leaderElection.renewDeadline | quote }}
            - name: ARRANGER_LEADERELECTION_RETRYPERIOD
              value: {{ $root.Values.leaderElection.retryPeriod | quote }}
            # Actuator on its own port (management.server.port).
            - name: MANAGEMENT_SERVER_PORT
              value: {{ $root.Values.management.port | quote }}
            {{- with $root.Values.watchNamespaces }}
            # Namespaced mode (arranger.watch.namespaces): TYJobs, and the controller's pods, only here.
            - name: ARRANGER_WATCH_NAMESPACES
              value: {{ join "," . | quote }}
            {{- end }}
            {{- with .values.springProfilesActive }}
            - name: SPRING_PROFILES_ACTIVE
              value: {{ . | quote }}
            {{- end }}
            {{- with .values.javaToolOptions }}
            - name: JAVA_TOOL_OPTIONS
              value: {{ . | quote }}
            {{- end }}
            {{- include (printf "arranger.%s.env" .name) . | nindent 12 }}
            {{- with .values.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          startupProbe:
            httpGet:
              path: /actuator/health/liveness
              port: management
            periodSeconds: {{ $root.Values.probes.startup.periodSeconds }}
            failureThreshold: {{ $root.Values.probes.startup.failureThreshold }}
            timeoutSeconds: {{ $root.Values.probes.startup.timeoutSeconds }}
          livenessProbe:
            httpGet:
              path: /actuator/health/liveness
              port: management
            periodSeconds: {{ $root.Values.probes.liveness.periodSeconds }}
            failureThreshold: {{ $root.Values.probes.liveness.failureThreshold }}
            timeoutSeconds: {{ $root.Values.probes.liveness.timeoutSeconds }}
          readinessProbe:
            httpGet:
              path: /actuator/health/readiness
              port: management
            periodSeconds: {{ $root.Values.probes.readiness.periodSeconds }}
            failureThreshold: {{ $root.Values.probes.readiness.failureThreshold }}
            timeoutSeconds: {{ $root.Values.probes.readiness.timeoutSeconds }}
          resources:
            {{- toYaml .values.resources | nindent 12 }}
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        # The root filesystem is read-only; the JVM and the embedded Tomcat write here.
        - name: tmp
          emptyDir:
            sizeLimit: {{ $root.Values.tmpVolumeSizeLimit }}
      {{- with .values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      affinity:
        {{- if .values.affinity }}
        {{- toYaml .values.affinity | nindent 8 }}
        {{- else }}
        # Replicas on different nodes, so that losing a node leaves a standby.
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                topologyKey: kubernetes.io/hostname
                labelSelector:
                  matchLabels:
                    {{- include "arranger.selectorLabels" . | nindent 20 }}
        {{- end }}
{{- end }}

{{- define "arranger.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "arranger.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "arranger.labels" . | nindent 4 }}
spec:
  type: {{ .values.service.type }}
  selector:
    {{- include "arranger.selectorLabels" . | nindent 4 }}
  ports:
    # Actuator and metrics (/actuator/prometheus); the services serve no other API.
    - name: management
      port: {{ .values.service.port }}
      targetPort: management
      protocol: TCP
{{- end }}

{{- define "arranger.podDisruptionBudget" -}}
{{- if .values.podDisruptionBudget.enabled }}
apiVersion: {{ include "arranger.pdbApiVersion" .root }}
kind: PodDisruptionBudget
metadata:
  name: {{ include "arranger.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "arranger.labels" . | nindent 4 }}
spec:
  minAvailable: {{ .values.podDisruptionBudget.minAvailable }}
  selector:
    matchLabels:
      {{- include "arranger.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end }}

{{- define "arranger.serviceMonitor" -}}
{{- if .root.Values.serviceMonitor.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "arranger.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "arranger.labels" . | nindent 4 }}
    {{- with .root.Values.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "arranger.selectorLabels" . | nindent 6 }}
  namespaceSelector:
    matchNames:
      - {{ .root.Release.Namespace }}
  endpoints:
    - port: management
      path: /actuator/prometheus
      # arranger_leader carries its own `service` label, which the dashboard and alerts group by;
      # without this the target's `service` label would rename it to exported_service.
      honorLabels: true
      interval: {{ .root.Values.serviceMonitor.interval }}
      scrapeTimeout: {{ .root.Values.serviceMonitor.scrapeTimeout }}
{{- end }}
{{- end }}
