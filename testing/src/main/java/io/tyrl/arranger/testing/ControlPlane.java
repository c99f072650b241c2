package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A real etcd + kube-apiserver on free loopback ports with temporary data. Authentication is by
 * static bearer tokens, authorization by RBAC; the admin identity is in {@code system:masters},
 * further identities start with no permissions so that tests can grant exactly what a service's
 * ClusterRole grants. Both processes are ended by their PIDs on {@link #close()}.
 */
public final class ControlPlane implements AutoCloseable {

  public static final String ADMIN = "arranger-admin";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

  private final Path workDir;
  private final Map<String, String> tokensByUser;
  private final int etcdClientPort;
  private final int etcdPeerPort;
  private final int apiServerPort;
  private final ControlPlaneBinaries binaries;
  private Process etcd;
  private Process apiServer;
  private List<String> apiServerCommand;
  private byte[] caCertificate;
  private volatile boolean apiServerFrozen;

  private ControlPlane(
      ControlPlaneBinaries binaries, Path workDir, Map<String, String> tokensByUser) {
    this.binaries = binaries;
    this.workDir = workDir;
    this.tokensByUser = tokensByUser;
    this.etcdClientPort = FreePorts.onLoopback();
    this.etcdPeerPort = FreePorts.onLoopback();
    this.apiServerPort = FreePorts.onLoopback();
  }

  /**
   * Starts a control plane with the admin identity and the given extra identities (no rights). A
   * free port is found by binding and closing it, so another process may take it before etcd or
   * kube-apiserver binds it (an outgoing connection's local port, on a busy machine): a start that
   * fails so is tried again on new ports, at most {@value FreePorts#LAUNCHES_WHEN_TAKEN} times.
   */
  public static ControlPlane start(List<String> extraUsers) {
    ControlPlaneBinaries binaries = ControlPlaneBinaries.locate();
    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put(ADMIN, UUID.randomUUID().toString());
    extraUsers.forEach(user -> tokens.put(user, UUID.randomUUID().toString()));
    for (int attempt = 1; ; attempt++) {
      ControlPlane controlPlane;
      try {
        controlPlane =
            new ControlPlane(
                binaries, Files.createTempDirectory("arranger-control-plane-"), tokens);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a temporary folder for the control plane", e);
      }
      try {
        controlPlane.launch();
        return controlPlane;
      } catch (RuntimeException e) {
        controlPlane.close();
        if (attempt >= FreePorts.LAUNCHES_WHEN_TAKEN || !portWasTaken(e)) {
          throw e;
        }
        sleep(FreePorts.pauseAfterTaken(attempt));
      }
    }
  }

  /** True when a component could not start because its port was taken. */
  static boolean portWasTaken(RuntimeException failure) {
    return failure.getMessage() != null && failure.getMessage().contains("address already in use");
  }

  public static ControlPlane start() {
    return start(List.of());
  }

  private void launch() {
    writeCredentials();
    etcd =
        startProcess(
            "etcd",
            List.of(
                binaries.etcd().toString(),
                "--name",
                "arranger-test",
                "--data-dir",
                workDir.resolve("etcd").toString(),
                "--listen-client-urls",
                "http://127.0.0.1:" + etcdClientPort,
                "--advertise-client-urls",
                "http://127.0.0.1:" + etcdClientPort,
                "--listen-peer-urls",
                "http://127.0.0.1:" + etcdPeerPort,
                "--initial-advertise-peer-urls",
                "http://127.0.0.1:" + etcdPeerPort,
                "--initial-cluster",
                "arranger-test=http://127.0.0.1:" + etcdPeerPort,
                "--unsafe-no-fsync"));
    apiServerCommand =
        List.of(
            binaries.kubeApiServer().toString(),
            "--etcd-servers",
            "http://127.0.0.1:" + etcdClientPort,
            "--bind-address",
            "127.0.0.1",
            "--advertise-address",
            "127.0.0.1",
            "--secure-port",
            Integer.toString(apiServerPort),
            "--cert-dir",
            workDir.resolve("certs").toString(),
            "--service-account-issuer",
            "https://kubernetes.default.svc",
            "--service-account-key-file",
            workDir.resolve("service-account.key").toString(),
            "--service-account-signing-key-file",
            workDir.resolve("service-account.key").toString(),
            "--token-auth-file",
            workDir.resolve("tokens.csv").toString(),
            "--authorization-mode",
            "RBAC",
            "--service-cluster-ip-range",
            "10.0.0.0/24",
            // No controller-manager runs here, so no ServiceAccount tokens are ever minted.
            "--disable-admission-plugins",
            "ServiceAccount");
    apiServer = startProcess("kube-apiserver", apiServerCommand);
    awaitReady();
  }

  private void writeCredentials() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      String key =
          Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
              .encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
      Files.writeString(
          workDir.resolve("service-account.key"),
          "-----BEGIN PRIVATE KEY-----\n" + key + "\n-----END PRIVATE KEY-----\n");
      StringBuilder tokens = new StringBuilder();
      tokensByUser.forEach(
          (user, token) ->
              tokens
                  .append(token)
                  .append(',')
                  .append(user)
                  .append(',')
                  .append(user)
                  .append(user.equals(ADMIN) ? ",system:masters" : "")
                  .append('\n'));
      Files.writeString(workDir.resolve("tokens.csv"), tokens);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write control-plane credentials to " + workDir, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM cannot generate RSA keys", e);
    }
  }

  private Process startProcess(String name, List<String> command) {
    try {
      return new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve(name + ".log").toFile()))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
  }

  private void awaitReady() {
    Instant deadline = Instant.now().plus(READY_TIMEOUT);
    Path certificate = workDir.resolve("certs/apiserver.crt");
    String lastAnswer = "no answer";
    while (Instant.now().isBefore(deadline)) {
      failIfExited(etcd, "etcd");
      failIfExited(apiServer, "kube-apiserver");
      if (Files.isRegularFile(certificate)) {
        lastAnswer = probeReadyz(certificate);
        if (lastAnswer.equals("ok")) {
          return;
        }
      }
      sleep(Duration.ofMillis(250));
    }
    throw new IllegalStateException(
        "kube-apiserver was not ready within "
            + READY_TIMEOUT.toSeconds()
            + " s (last /readyz answer: "
            + lastAnswer
            + ")\n"
            + logTail("kube-apiserver"));
  }

  private String probeReadyz(Path certificate) {
    try {
      caCertificate = Files.readAllBytes(certificate);
      ApiClient client = client(ADMIN);
      Request request = new Request.Builder().url(url() + "/readyz").build();
      try (Response response = client.getHttpClient().newCall(request).execute()) {
        return response.body() == null
            ? "HTTP " + response.code()
            : response.body().string().trim();
      }
    } catch (IOException | RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private void failIfExited(Process process, String name) {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          name + " exited with code " + process.exitValue() + "\n" + logTail(name));
    }
  }

  /** The last lines of a component's log, for failure messages. */
  public String logTail(String component) {
    Path log = workDir.resolve(component + ".log");
    try (Stream<String> lines = Files.lines(log)) {
      List<String> all = lines.toList();
      return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log at " + log + ")";
    }
  }

  public String url() {
    return "https://127.0.0.1:" + apiServerPort;
  }

  public String token(String user) {
    String token = tokensByUser.get(user);
    if (token == null) {
      throw new IllegalArgumentException(
          "no identity " + user + " on this control plane; known: " + tokensByUser.keySet());
    }
    return token;
  }

  /** A new client for the identity; informers need their own client (read timeout 0). */
  public ApiClient client(String user) {
    return new ClientBuilder()
        .setBasePath(url())
        .setVerifyingSsl(true)
        .setCertificateAuthority(caCertificate)
        .setAuthentication(new AccessTokenAuthentication(token(user)))
        .build();
  }

  public ApiClient adminClient() {
    return client(ADMIN);
  }

  /** Writes a kubeconfig for the identity, for kubectl or for a service started as a process. */
  public Path writeKubeconfig(Path file, String user) {
    String ca = Base64.getEncoder().encodeToString(caCertificate);
    String kubeconfig =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: arranger-local
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: arranger-local
          context:
            cluster: arranger-local
            user: %s
        current-context: arranger-local
        """
            .formatted(url(), ca, user, token(user), user);
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, kubeconfig);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write kubeconfig " + file, e);
    }
  }

  public long apiServerPid() {
    return apiServer.pid();
  }

  public long etcdPid() {
    return etcd.pid();
  }

  /** Stops kube-apiserver only, keeping etcd and the data, so that tests can simulate an outage. */
  public void stopApiServer() {
    ProcessStopper.stop(apiServer, STOP_TIMEOUT);
  }

  /**
   * Freezes kube-apiserver (SIGSTOP): its port stays open and accepts connections, but nothing is
   * answered — the harder outage for clients, which only notice it through their timeouts.
   */
  public synchronized void freezeApiServer() {
    Signals.freeze(apiServer.pid());
    apiServerFrozen = true;
  }

  /**
   * Resumes kube-apiserver after {@link #freezeApiServer()} and waits until it answers /readyz
   * again.
   */
  public synchronized void thawApiServer() {
    Signals.thaw(apiServer.pid());
    apiServerFrozen = false;
    awaitReady();
  }

  /** Starts kube-apiserver again on the same port with the same data and credentials. */
  public void restartApiServer() {
    if (apiServer.isAlive()) {
      throw new IllegalStateException(
          "kube-apiserver (pid " + apiServer.pid() + ") is still running");
    }
    apiServer = startProcess("kube-apiserver", apiServerCommand);
    awaitReady();
  }

  @Override
  public void close() {
    List<RuntimeException> failures = new ArrayList<>();
    if (apiServerFrozen && apiServer != null && apiServer.isAlive()) {
      Signals.thaw(apiServer.pid());
    }
    for (Process process : new Process[] {apiServer, etcd}) {
      if (process != null) {
        try {
          ProcessStopper.stop(process, STOP_TIMEOUT);
        } catch (RuntimeException e) {
          failures.add(e);
        }
      }
    }
    deleteRecursively(workDir);
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      System.err.println("[arranger-testing] could not delete " + dir + ": " + e.getMessage());
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the control plane", e);
    }
  }
}
