package io.tyrl.arranger.scheduler.api;

/** Operators of a required node-affinity requirement, as in Kubernetes. */
public enum NodeSelectorOperator {
  IN,
  NOT_IN,
  EXISTS,
  DOES_NOT_EXIST,
  GT,
  LT;

  /** Parses the Kubernetes spelling ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"). */
  public static NodeSelectorOperator fromKubernetes(String name) {
    return switch (name) {
      case "In" -> IN;
      case "NotIn" -> NOT_IN;
      case "Exists" -> EXISTS;
      case "DoesNotExist" -> DOES_NOT_EXIST;
      case "Gt" -> GT;
      case "Lt" -> LT;
      default ->
          throw new IllegalArgumentException(
              "unknown node selector operator '"
                  + name
                  + "': expected In, NotIn, Exists, DoesNotExist, Gt or Lt");
    };
  }
}
