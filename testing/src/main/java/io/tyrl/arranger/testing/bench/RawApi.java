package io.tyrl.arranger.testing.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.tyrl.arranger.testing.ControlPlane;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import okhttp3.ConnectionPool;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * A tight client for the API server: pre-serialized JSON bodies over plain OkHttp (no model
 * serialization, no client-side rate limit), spread over several connections and a fixed pool of
 * threads. Used for the benchmark's own creates, deletes and reads.
 */
final class RawApi implements AutoCloseable {

  static final MediaType JSON = MediaType.get("application/json");
  private static final int ATTEMPTS = 5;

  private final String base;
  private final String authorization;
  private final List<OkHttpClient> clients = new ArrayList<>();
  private final OkHttpClient watchClient;
  private final ExecutorService pool;
  private final int threads;

  RawApi(ControlPlane controlPlane, int threads, int connections) {
    this.base = controlPlane.url();
    this.authorization = "Bearer " + controlPlane.token(ControlPlane.ADMIN);
    OkHttpClient template = controlPlane.adminClient().getHttpClient();
    for (int i = 0; i < connections; i++) {
      clients.add(
          template
              .newBuilder()
              .connectionPool(new ConnectionPool(threads, 5, TimeUnit.MINUTES))
              .readTimeout(60, TimeUnit.SECONDS)
              .writeTimeout(60, TimeUnit.SECONDS)
              .build());
    }
    watchClient =
        template
            .newBuilder()
            .connectionPool(new ConnectionPool())
            .readTimeout(0, TimeUnit.SECONDS)
            .build();
    this.threads = threads;
    AtomicInteger counter = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            runnable -> {
              Thread thread = new Thread(runnable, "bench-client-" + counter.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  int threads() {
    return threads;
  }

  OkHttpClient watchClient() {
    return watchClient;
  }

  Request.Builder request(String path) {
    return new Request.Builder().url(base + path).header("Authorization", authorization);
  }

  /**
   * One request; returns the body; throws on an unexpected status. Retries 429, 5xx and I/O errors.
   */
  String send(int client, Request request, int... okCodes) {
    IOException lastIo = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try (Response response =
          clients.get(Math.floorMod(client, clients.size())).newCall(request).execute()) {
        String body = response.body() == null ? "" : response.body().string();
        int code = response.code();
        if (code >= 200 && code < 300 || contains(okCodes, code)) {
          return body;
        }
        if (code == 429 || code >= 500) {
          pause(attempt);
          continue;
        }
        throw new IllegalStateException(
            request.method()
                + " "
                + request.url().encodedPath()
                + " → HTTP "
                + code
                + ": "
                + body.substring(0, Math.min(400, body.length())));
      } catch (IOException e) {
        lastIo = e;
        pause(attempt);
      }
    }
    throw new IllegalStateException(
        request.method() + " " + request.url() + " failed " + ATTEMPTS + " times", lastIo);
  }

  String get(String path) {
    return send(0, request(path).get().build());
  }

  JsonObject getJson(String path) {
    return JsonParser.parseString(get(path)).getAsJsonObject();
  }

  String post(int client, String path, String json, int... okCodes) {
    return send(client, request(path).post(RequestBody.create(json, JSON)).build(), okCodes);
  }

  String delete(String path, String json, int... okCodes) {
    return send(0, request(path).delete(RequestBody.create(json, JSON)).build(), okCodes);
  }

  /**
   * Runs {@code count} requests, task i built by {@code body}, on the pool; returns when all have
   * answered. Task i uses connection i mod connections.
   */
  void postAll(int count, IntFunction<String> path, IntFunction<String> body) {
    runAll(count, i -> post(i, path.apply(i), body.apply(i)));
  }

  /** Runs the tasks on the pool and waits for all of them. */
  void runAll(int count, java.util.function.IntConsumer task) {
    List<Future<?>> futures = new ArrayList<>(threads);
    AtomicInteger next = new AtomicInteger();
    for (int t = 0; t < threads; t++) {
      futures.add(
          pool.submit(
              () -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                  task.accept(i);
                }
              }));
    }
    for (Future<?> future : futures) {
      try {
        future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      } catch (java.util.concurrent.ExecutionException e) {
        futures.forEach(f -> f.cancel(true));
        throw new IllegalStateException(
            "concurrent tasks failed: " + e.getCause().getMessage(), e.getCause());
      }
    }
  }

  /** Objects in a collection (cheap: one item per page, counted from remainingItemCount). */
  long count(String collectionPath) {
    JsonObject list =
        getJson(collectionPath + (collectionPath.contains("?") ? "&" : "?") + "limit=1");
    long items = list.getAsJsonArray("items").size();
    JsonObject metadata = list.getAsJsonObject("metadata");
    if (metadata != null && metadata.has("remainingItemCount")) {
      items += metadata.get("remainingItemCount").getAsLong();
    } else if (metadata != null
        && metadata.has("continue")
        && !metadata.get("continue").getAsString().isEmpty()) {
      // No remainingItemCount (e.g. with a selector): at least two.
      items = Math.max(items, 2);
    }
    return items;
  }

  private static boolean contains(int[] codes, int code) {
    for (int c : codes) {
      if (c == code) {
        return true;
      }
    }
    return false;
  }

  private static void pause(int attempt) {
    try {
      Thread.sleep(100L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    for (OkHttpClient client : clients) {
      client.connectionPool().evictAll();
    }
    watchClient.dispatcher().executorService().shutdownNow();
    watchClient.connectionPool().evictAll();
  }
}
