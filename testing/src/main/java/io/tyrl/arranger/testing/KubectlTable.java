package io.tyrl.arranger.testing;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code kubectl get} prints for one object: the API server's Table rendering of it (the CRD's
 * printer columns, as kubectl asks for them with {@code Accept: application/json;as=Table}). Every
 * column is returned; {@link #wide()} tells which only {@code -o wide} shows (priority above 0).
 */
public record KubectlTable(Map<String, String> cells, List<String> wide) {

  /**
   * @param path e.g. {@code /apis/arranger.tyrl.io/v1alpha1/queues/default} or {@code
   *     /apis/arranger.tyrl.io/v1alpha1/namespaces/rl/tyjobs/pong}
   */
  public static KubectlTable get(ApiClient client, String path) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io");
    try {
      okhttp3.Call call =
          client.buildCall(
              client.getBasePath(),
              path,
              "GET",
              new ArrayList<Pair>(),
              new ArrayList<Pair>(),
              null,
              headers,
              new HashMap<>(),
              new HashMap<>(),
              new String[] {"BearerToken"},
              null);
      JsonObject table = client.<JsonObject>execute(call, JsonObject.class).getData();
      JsonArray columns = table.getAsJsonArray("columnDefinitions");
      JsonArray cells =
          table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
      Map<String, String> byColumn = new LinkedHashMap<>();
      List<String> wide = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        JsonObject column = columns.get(i).getAsJsonObject();
        String name = column.get("name").getAsString();
        JsonElement cell = cells.get(i);
        byColumn.put(name, cell == null || cell.isJsonNull() ? "" : cell.getAsString());
        if (column.has("priority") && column.get("priority").getAsInt() > 0) {
          wide.add(name);
        }
      }
      return new KubectlTable(byColumn, wide);
    } catch (ApiException e) {
      throw new IllegalStateException(
          "cannot read " + path + " as a table (HTTP " + e.getCode() + "): " + e.getResponseBody(),
          e);
    }
  }

  /**
   * The cell of a column by its name (as kubectl prints it upper-cased), empty when the field is
   * unset.
   */
  public String cell(String column) {
    String value = cells.get(column);
    if (value == null) {
      throw new IllegalArgumentException("no column " + column + " in " + cells.keySet());
    }
    return value;
  }
}
