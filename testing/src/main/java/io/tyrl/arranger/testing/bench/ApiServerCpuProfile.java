package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import okhttp3.Response;

/**
 * With {@code --api-server-profile S}: kube-apiserver's own CPU profile (Go pprof, its {@code
 * /debug/pprof/profile}) of the first S seconds of a run, fetched on a thread of its own (the
 * request lasts S seconds) and written into the work folder.
 */
final class ApiServerCpuProfile {

  private final Thread thread;

  private ApiServerCpuProfile(Thread thread) {
    this.thread = thread;
  }

  /**
   * Starts profiling the next {@code seconds}; nothing when seconds is 0 (the option's absence).
   */
  static ApiServerCpuProfile start(RawApi api, Path workDir, String name, int seconds) {
    if (seconds <= 0) {
      return new ApiServerCpuProfile(null);
    }
    Path file = workDir.resolve("kube-apiserver-" + name + ".pb.gz");
    Thread thread =
        new Thread(
            () -> {
              try (Response response =
                  api.watchClient()
                      .newCall(api.request("/debug/pprof/profile?seconds=" + seconds).get().build())
                      .execute()) {
                if (!response.isSuccessful() || response.body() == null) {
                  progress("  kube-apiserver profile refused: HTTP %d", response.code());
                  return;
                }
                Files.write(file, response.body().bytes());
                progress(
                    "  kube-apiserver CPU profile of %d s: %s (read it with: go tool pprof -top %s)",
                    seconds, file, file);
              } catch (IOException e) {
                progress("  kube-apiserver profile failed: %s", e.getMessage());
              }
            },
            "bench-api-server-profile");
    thread.setDaemon(true);
    thread.start();
    return new ApiServerCpuProfile(thread);
  }

  /** Waits until the profile is written (or refused), so the next run does not overlap it. */
  void await() {
    if (thread == null) {
      return;
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
