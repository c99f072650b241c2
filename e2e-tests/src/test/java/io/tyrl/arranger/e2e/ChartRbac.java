package io.tyrl.arranger.e2e;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yaml.snakeyaml.Yaml;

/**
 * The Helm chart's RBAC on the test API server: the chart is rendered with helm, its Roles and
 * ClusterRoles are created as they are, and its bindings are created with their ServiceAccount
 * subjects replaced by the users the services run as here (no ServiceAccount tokens exist on this
 * control plane). The services then have exactly the rights the chart gives them.
 */
final class ChartRbac {

  private static final Map<String, String> PLURALS =
      Map.of(
          "ClusterRole",
          "clusterroles",
          "ClusterRoleBinding",
          "clusterrolebindings",
          "Role",
          "roles",
          "RoleBinding",
          "rolebindings");

  private ChartRbac() {}

  /**
   * @param users service name fragment ("scheduler", "controller") → user name on the test server
   */
  static List<String> apply(
      ApiClient client, Path projectRoot, String namespace, Map<String, String> users)
      throws IOException, InterruptedException {
    return apply(client, projectRoot, "arranger", namespace, users, List.of());
  }

  /**
   * @param release the Helm release name, which prefixes the roles' names
   * @param helmArguments more arguments for {@code helm template}, e.g. {@code --set
   *     watchNamespaces={a}}
   */
  static List<String> apply(
      ApiClient client,
      Path projectRoot,
      String release,
      String namespace,
      Map<String, String> users,
      List<String> helmArguments)
      throws IOException, InterruptedException {
    List<String> applied = new ArrayList<>();
    for (Object document :
        new Yaml().loadAll(render(projectRoot, release, namespace, helmArguments))) {
      if (!(document instanceof Map<?, ?> map)
          || !PLURALS.containsKey(String.valueOf(map.get("kind")))) {
        continue;
      }
      JsonObject object = new Gson().toJsonTree(map).getAsJsonObject();
      String kind = object.get("kind").getAsString();
      if (kind.endsWith("Binding")) {
        if (bindsOnlyGpuReservations(object)) {
          // The reservation pods' own identity: the simulated kubelet plays those pods here.
          continue;
        }
        rewriteSubjects(object, users);
      }
      DynamicKubernetesApi api =
          new DynamicKubernetesApi("rbac.authorization.k8s.io", "v1", PLURALS.get(kind), client);
      KubernetesApiResponse<DynamicKubernetesObject> created =
          api.create(new DynamicKubernetesObject(object));
      if (!created.isSuccess() && created.getHttpStatusCode() != 409) {
        throw new IllegalStateException(
            "cannot create "
                + kind
                + " "
                + object.getAsJsonObject("metadata").get("name")
                + ": "
                + created.getStatus().getMessage());
      }
      applied.add(kind + "/" + object.getAsJsonObject("metadata").get("name").getAsString());
    }
    if (applied.stream().noneMatch(a -> a.startsWith("ClusterRoleBinding/"))) {
      throw new IllegalStateException(
          "the chart rendered no ClusterRoleBinding; applied: " + applied);
    }
    return applied;
  }

  private static boolean bindsOnlyGpuReservations(JsonObject binding) {
    for (var element : binding.getAsJsonArray("subjects")) {
      if (!element.getAsJsonObject().get("name").getAsString().endsWith("-gpu-reservation")) {
        return false;
      }
    }
    return true;
  }

  private static void rewriteSubjects(JsonObject binding, Map<String, String> users) {
    JsonArray subjects = new JsonArray();
    for (var element : binding.getAsJsonArray("subjects")) {
      String account = element.getAsJsonObject().get("name").getAsString();
      String user =
          users.entrySet().stream()
              .filter(e -> account.contains(e.getKey()))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "binding subject " + account + " is neither service"));
      JsonObject subject = new JsonObject();
      subject.addProperty("kind", "User");
      subject.addProperty("apiGroup", "rbac.authorization.k8s.io");
      subject.addProperty("name", user);
      subjects.add(subject);
    }
    binding.add("subjects", subjects);
  }

  private static String render(
      Path projectRoot, String release, String namespace, List<String> helmArguments)
      throws IOException, InterruptedException {
    String helm =
        lastLine(
            run(projectRoot, List.of("bash", projectRoot.resolve("scripts/helm.sh").toString())));
    List<String> command =
        new ArrayList<>(
            List.of(
                helm,
                "template",
                release,
                projectRoot.resolve("charts/arranger").toString(),
                "--namespace",
                namespace));
    command.addAll(helmArguments);
    return run(projectRoot, command);
  }

  private static String run(Path directory, List<String> command)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    StringBuilder out = new StringBuilder();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        out.append(line).append('\n');
      }
    }
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed");
    }
    return out.toString();
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    return lines[lines.length - 1].strip();
  }
}
