package io.tyrl.arranger.controller.lifecycle.validation;

import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.crd.contract.Quantities;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a pod template the way the API server would check the pods made from it, so that a job
 * whose pods could never be created fails at once, with the field named, instead of retrying.
 */
final class TemplateValidator {

  void validate(String templatePath, PodTemplateView template, List<ValidationProblem> problems) {
    if (template.containers().isEmpty()) {
      problems.add(
          new ValidationProblem(
              templatePath + ".spec.containers", "at least one container is required"));
    }
    Set<String> namesSeen = new HashSet<>();
    validateContainers(
        templatePath + ".spec.containers", template.containers(), namesSeen, problems);
    validateContainers(
        templatePath + ".spec.initContainers", template.initContainers(), namesSeen, problems);
  }

  private void validateContainers(
      String listPath,
      List<ContainerView> containers,
      Set<String> namesSeen,
      List<ValidationProblem> problems) {
    for (int i = 0; i < containers.size(); i++) {
      String path = listPath + "[" + i + "]";
      ContainerView container = containers.get(i);
      validateName(path + ".name", container.name(), namesSeen, problems);
      Map<String, BigDecimal> requests =
          quantities(path + ".resources.requests", container.requests(), problems);
      Map<String, BigDecimal> limits =
          quantities(path + ".resources.limits", container.limits(), problems);
      requests.forEach(
          (resource, request) -> {
            BigDecimal limit = limits.get(resource);
            if (limit != null && request.compareTo(limit) > 0) {
              problems.add(
                  new ValidationProblem(
                      path + ".resources.requests[" + resource + "]",
                      "%s is more than the limit %s"
                          .formatted(
                              container.requests().get(resource),
                              container.limits().get(resource))));
            }
          });
    }
  }

  private void validateName(
      String path, String name, Set<String> namesSeen, List<ValidationProblem> problems) {
    Optional<String> problem = DnsLabel.problemWith(name);
    if (problem.isPresent()) {
      problems.add(new ValidationProblem(path, problem.get()));
    } else if (!namesSeen.add(name)) {
      problems.add(new ValidationProblem(path, "duplicate container name \"%s\"".formatted(name)));
    }
  }

  /**
   * The parseable, non-negative quantities; a problem for each other one. Sorted for stable
   * messages.
   */
  private Map<String, BigDecimal> quantities(
      String path, Map<String, String> raw, List<ValidationProblem> problems) {
    Map<String, BigDecimal> parsed = new TreeMap<>();
    new TreeMap<>(raw)
        .forEach(
            (resource, text) -> {
              String field = path + "[" + resource + "]";
              Optional<BigDecimal> quantity = Quantities.tryParse(text);
              if (quantity.isEmpty()) {
                problems.add(
                    new ValidationProblem(
                        field,
                        "\"%s\" is not a Kubernetes quantity (e.g. 500m, 2Gi, 1)".formatted(text)));
              } else if (quantity.get().signum() < 0) {
                problems.add(
                    new ValidationProblem(field, "\"%s\" must not be negative".formatted(text)));
              } else {
                parsed.put(resource, quantity.get());
              }
            });
    return parsed;
  }
}
