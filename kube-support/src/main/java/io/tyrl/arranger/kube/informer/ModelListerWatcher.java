package io.tyrl.arranger.kube.informer;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.util.CallGenerator;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import io.tyrl.arranger.kube.ModelGson;
import java.io.IOException;
import java.io.Reader;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Lists and watches one kind through client-java's generated calls, decoding the answers with
 * {@link ModelGson} straight from the response (docs/performance.md, "Decoding"). Plugs into
 * client-java's {@code SharedInformerFactory} like the lister-watcher it builds itself, so the
 * reflector, the store and the event handlers stay client-java's own.
 *
 * @param <T> the model
 * @param <L> its list
 */
public final class ModelListerWatcher<T extends KubernetesObject, L extends KubernetesListObject>
    implements ListerWatcher<T, L> {

  private final CallGenerator calls;
  private final Class<T> type;
  private final Class<L> listType;
  private final Gson gson = ModelGson.get();

  /**
   * @param calls builds the list call (params' {@code watch} false) and the watch call (true) on an
   *     API client whose read timeout is 0, as client-java's informers need
   */
  public ModelListerWatcher(CallGenerator calls, Class<T> type, Class<L> listType) {
    this.calls = calls;
    this.type = type;
    this.listType = listType;
  }

  /** Every node of the cluster, as both services watch them. */
  public static ModelListerWatcher<V1Node, V1NodeList> nodes(ApiClient informerClient) {
    CoreV1Api core = new CoreV1Api(informerClient);
    return new ModelListerWatcher<>(
        params ->
            core.listNode()
                .resourceVersion(params.resourceVersion)
                .watch(params.watch)
                .timeoutSeconds(params.timeoutSeconds)
                .buildCall(null),
        V1Node.class,
        V1NodeList.class);
  }

  @Override
  public L list(CallGeneratorParams params) throws ApiException {
    Call call =
        calls.generate(
            new CallGeneratorParams(false, params.resourceVersion, params.timeoutSeconds));
    try (Response response = call.execute()) {
      ResponseBody body = failIfUnsuccessful(response, "list");
      try (Reader reader = body.charStream()) {
        L list = gson.fromJson(reader, listType);
        if (list == null) {
          throw new ApiException("list of " + type.getSimpleName() + " answered an empty body");
        }
        return list;
      }
    } catch (IOException | JsonParseException e) {
      throw new ApiException(
          "list of " + type.getSimpleName() + " failed: " + e.getMessage(), e, 0, null, null);
    }
  }

  @Override
  public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
    Call call =
        calls.generate(
            new CallGeneratorParams(true, params.resourceVersion, params.timeoutSeconds));
    Response response;
    try {
      response = call.execute();
    } catch (IOException e) {
      throw new ApiException(
          "watch of " + type.getSimpleName() + " failed: " + e.getMessage(), e, 0, null, null);
    }
    try {
      ResponseBody body = failIfUnsuccessful(response, "watch");
      return new ModelWatch<>(
          gson,
          type,
          body.source(),
          () -> {
            response.close();
            call.cancel();
          });
    } catch (ApiException | RuntimeException e) {
      response.close();
      throw e;
    }
  }

  private ResponseBody failIfUnsuccessful(Response response, String verb) throws ApiException {
    ResponseBody body = response.body();
    if (response.isSuccessful() && body != null) {
      return body;
    }
    String text;
    try {
      text = body == null ? "" : body.string();
    } catch (IOException e) {
      text = "(body unreadable: " + e.getMessage() + ")";
    }
    throw new ApiException(
        verb + " of " + type.getSimpleName() + " answered HTTP " + response.code(),
        response.code(),
        response.headers().toMultimap(),
        text);
  }
}
