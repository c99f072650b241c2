package io.tyrl.arranger.kube.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * An OkHttp interceptor on the Kubernetes clients that counts and times every API request under
 * client-go's metric names, so that the dashboards operators use for kube-scheduler and
 * controller-manager read Arranger too: {@code rest_client_requests_total{code,method,host}} and
 * {@code rest_client_request_duration_seconds{verb,resource}} (a histogram).
 *
 * <p>A watch is a GET that stays open for minutes; it is timed as verb {@code WATCH} so that it
 * does not stretch the GET latencies. A request that got no response counts with code {@code
 * <error>}, as in client-go.
 */
public final class RestClientMetrics implements Interceptor {

  static final String NO_RESPONSE = "<error>";
  private static final Set<String> GROUPLESS_PREFIX = Set.of("api");

  private final MeterRegistry registry;

  public RestClientMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    long start = System.nanoTime();
    String code = NO_RESPONSE;
    try {
      Response response = chain.proceed(request);
      code = Integer.toString(response.code());
      return response;
    } finally {
      record(request, code, System.nanoTime() - start);
    }
  }

  private void record(Request request, String code, long nanos) {
    HttpUrl url = request.url();
    Counter.builder("rest.client.requests")
        .description("Requests to the Kubernetes API server, by status code, method and host")
        .tag("code", code)
        .tag("method", request.method())
        .tag("host", url.host() + ":" + url.port())
        .register(registry)
        .increment();
    Timer.builder("rest.client.request.duration")
        .description("Latency of requests to the Kubernetes API server, by verb and resource")
        .tag("verb", verb(request))
        .tag("resource", resource(url.pathSegments()))
        .serviceLevelObjectives(LatencyBuckets.REST_CLIENT)
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  static String verb(Request request) {
    return "GET".equals(request.method()) && "true".equals(request.url().queryParameter("watch"))
        ? "WATCH"
        : request.method();
  }

  /**
   * The resource a path names, with its subresource: {@code /api/v1/namespaces/a/pods/p/status} →
   * {@code pods/status}, {@code /apis/arranger.tyrl.io/v1alpha1/tyjobs} → {@code tyjobs}, {@code
   * /api/v1/namespaces/a} → {@code namespaces}; anything else (version, health) → {@code none}.
   */
  static String resource(List<String> segments) {
    int start;
    if (segments.size() >= 2 && GROUPLESS_PREFIX.contains(segments.get(0))) {
      start = 2;
    } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
      start = 3;
    } else {
      return "none";
    }
    List<String> rest =
        segments.subList(start, segments.size()).stream().filter(s -> !s.isEmpty()).toList();
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      rest = rest.subList(2, rest.size());
    }
    if (rest.isEmpty()) {
      return "none";
    }
    return rest.size() >= 3 ? rest.get(0) + "/" + rest.get(2) : rest.get(0);
  }
}
