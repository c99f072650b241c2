package io.tyrl.arranger.testing.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import okhttp3.Call;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * Watches the pods of one namespace and counts those that have a node ({@code spec.nodeName}),
 * remembering when the count reached the target. A raw watch with one JSON parse per event: cheap
 * enough not to compete with what it measures. Reconnects from the last resourceVersion if the API
 * server ends the watch.
 */
final class BindingWatch implements AutoCloseable {

  private final RawApi api;
  private final String namespace;
  private final Set<String> bound = ConcurrentHashMap.newKeySet();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final Thread thread;
  private final Consumer<JsonObject> onBound;
  private volatile String resourceVersion;
  private volatile boolean closed;
  private volatile Call call;
  private volatile long target = Long.MAX_VALUE;
  private volatile long reachedNanos;
  private volatile String failure;

  BindingWatch(RawApi api, String namespace) {
    this(api, namespace, pod -> {});
  }

  /**
   * @param onBound called on the watch's thread with each pod the first time it is seen with a node
   */
  BindingWatch(RawApi api, String namespace, Consumer<JsonObject> onBound) {
    this.api = api;
    this.namespace = namespace;
    this.onBound = onBound;
    JsonObject list = api.getJson("/api/v1/namespaces/" + namespace + "/pods?limit=1");
    if (!list.getAsJsonArray("items").isEmpty()) {
      throw new IllegalStateException("namespace " + namespace + " is not empty of pods");
    }
    this.resourceVersion = list.getAsJsonObject("metadata").get("resourceVersion").getAsString();
    this.thread = new Thread(this::run, "bench-watch-" + namespace);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!closed) {
      String path =
          "/api/v1/namespaces/"
              + namespace
              + "/pods?watch=true&allowWatchBookmarks=true&resourceVersion="
              + resourceVersion;
      call = api.watchClient().newCall(api.request(path).get().build());
      try (Response response = call.execute()) {
        if (!response.isSuccessful()) {
          failure = "watch answered HTTP " + response.code();
          return;
        }
        BufferedSource source = response.body().source();
        for (String line = source.readUtf8Line();
            line != null && !closed;
            line = source.readUtf8Line()) {
          if (!line.isBlank()) {
            handle(JsonParser.parseString(line).getAsJsonObject());
          }
        }
      } catch (IOException | RuntimeException e) {
        if (!closed) {
          sleep(200);
        }
      }
    }
  }

  private void handle(JsonObject event) {
    String type = event.get("type").getAsString();
    JsonObject object = event.getAsJsonObject("object");
    if (type.equals("ERROR")) {
      failure = "watch error: " + object;
      closed = true;
      return;
    }
    JsonObject metadata = object.getAsJsonObject("metadata");
    resourceVersion = metadata.get("resourceVersion").getAsString();
    if (type.equals("BOOKMARK") || type.equals("DELETED")) {
      return;
    }
    String name = metadata.get("name").getAsString();
    seen.add(name);
    JsonObject spec = object.getAsJsonObject("spec");
    JsonElement nodeName = spec == null ? null : spec.get("nodeName");
    if (nodeName != null
        && !nodeName.isJsonNull()
        && !nodeName.getAsString().isEmpty()
        && bound.add(name)) {
      onBound.accept(object);
      if (bound.size() >= target && reachedNanos == 0) {
        reachedNanos = System.nanoTime();
        synchronized (this) {
          notifyAll();
        }
      }
    }
  }

  int bound() {
    return bound.size();
  }

  int seen() {
    return seen.size();
  }

  /** Names of every pod the watch has seen (bound or not). */
  Set<String> seenNames() {
    return Set.copyOf(seen);
  }

  /**
   * Waits until {@code count} pods have a node; returns System.nanoTime() of the event that made
   * it, or throws after the timeout with the count so far.
   */
  long awaitBound(long count, Duration timeout, Runnable progress) {
    target = count;
    if (bound.size() >= count && reachedNanos == 0) {
      reachedNanos = System.nanoTime();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    long nextProgress = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    synchronized (this) {
      while (reachedNanos == 0) {
        if (failure != null && closed) {
          throw new IllegalStateException(failure);
        }
        long now = System.nanoTime();
        if (now >= deadline) {
          throw new IllegalStateException(
              "only "
                  + bound.size()
                  + " of "
                  + count
                  + " pods in "
                  + namespace
                  + " have a node after "
                  + timeout.toSeconds()
                  + " s ("
                  + seen.size()
                  + " pods seen)");
        }
        if (now >= nextProgress) {
          progress.run();
          nextProgress = now + Duration.ofSeconds(5).toNanos();
        }
        try {
          wait(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }
    }
    return reachedNanos;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    Call current = call;
    if (current != null) {
      current.cancel();
    }
  }
}
