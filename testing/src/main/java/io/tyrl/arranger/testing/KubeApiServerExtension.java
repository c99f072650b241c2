package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class a real etcd + kube-apiserver with Arranger's CRDs installed. One control plane
 * serves the whole test JVM; it is stopped by its PIDs when the test plan ends. A control plane
 * that cannot be provisioned or started fails the tests: it never skips them.
 *
 * <p>Test methods and constructors may declare {@link ApiClient} (admin), {@link ControlPlane},
 * {@link SimulatedNodes} or {@link SimulatedKubelet} parameters.
 */
public final class KubeApiServerExtension implements BeforeAllCallback, ParameterResolver {

  /** Identities the services use against an RBAC-enforcing API server. */
  public static final List<String> SERVICE_IDENTITIES =
      List.of(
          "arranger-scheduler",
          "arranger-controller",
          "arranger-scheduler-namespaced",
          "arranger-controller-namespaced");

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(KubeApiServerExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    controlPlane(context);
  }

  /** The JVM's control plane, started on first use. */
  public static ControlPlane controlPlane(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            RunningControlPlane.class,
            key -> RunningControlPlane.start(),
            RunningControlPlane.class)
        .controlPlane();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == ApiClient.class
        || type == ControlPlane.class
        || type == SimulatedNodes.class
        || type == SimulatedKubelet.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
      throws ParameterResolutionException {
    ControlPlane controlPlane = controlPlane(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == ControlPlane.class) {
      return controlPlane;
    }
    ApiClient client = controlPlane.adminClient();
    if (type == SimulatedNodes.class) {
      return new SimulatedNodes(client);
    }
    if (type == SimulatedKubelet.class) {
      return new SimulatedKubelet(client);
    }
    return client;
  }

  /** Closed by JUnit when the root context closes, which stops the processes. */
  private record RunningControlPlane(ControlPlane controlPlane) implements AutoCloseable {

    static RunningControlPlane start() {
      ControlPlane controlPlane = ControlPlane.start(SERVICE_IDENTITIES);
      try {
        CustomResourceDefinitions.install(controlPlane.adminClient());
      } catch (RuntimeException e) {
        controlPlane.close();
        throw e;
      }
      return new RunningControlPlane(controlPlane);
    }

    @Override
    public void close() {
      controlPlane.close();
    }
  }
}
