package io.tyrl.arranger.testing.chart;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import java.util.List;

/**
 * What each service must be able to do against the API server (taken from its code: informers,
 * status patches, pod writes, Events, its Lease, the scheduler's ConfigMap) and a sample of what it
 * must not, as access requests an identity asks the API server about with SelfSubjectAccessReview.
 */
final class ServiceRights {

  static final String GROUP = "arranger.tyrl.io";

  /** A namespace of users' jobs, other than the one the services run in. */
  static final String JOBS = "team-a";

  private ServiceRights() {}

  /**
   * One request: a verb on a resource (optionally a subresource), cluster-wide or in a namespace,
   * optionally by name.
   */
  record Access(
      String verb,
      String group,
      String resource,
      String subresource,
      String namespace,
      String name) {

    static Access to(String verb, String group, String resource) {
      return new Access(verb, group, resource, null, null, null);
    }

    Access subresource(String value) {
      return new Access(verb, group, resource, value, namespace, name);
    }

    Access in(String value) {
      return new Access(verb, group, resource, subresource, value, name);
    }

    Access named(String value) {
      return new Access(verb, group, resource, subresource, namespace, value);
    }

    /** Asks the API server whether the client's own identity may do this. */
    boolean isAllowedFor(ApiClient identity) throws ApiException {
      V1SelfSubjectAccessReview review =
          new V1SelfSubjectAccessReview()
              .spec(
                  new V1SelfSubjectAccessReviewSpec()
                      .resourceAttributes(
                          new V1ResourceAttributes()
                              .verb(verb)
                              .group(group)
                              .resource(resource)
                              .subresource(subresource)
                              .namespace(namespace)
                              .name(name)));
      return Boolean.TRUE.equals(
          new AuthorizationV1Api(identity)
              .createSelfSubjectAccessReview(review)
              .execute()
              .getStatus()
              .getAllowed());
    }

    @Override
    public String toString() {
      return verb
          + " "
          + (group.isEmpty() ? "" : group + "/")
          + resource
          + (subresource == null ? "" : "/" + subresource)
          + (name == null ? "" : " " + name)
          + (namespace == null ? " (cluster-wide)" : " in " + namespace);
    }
  }

  static List<Access> schedulerNeeds(String ownNamespace, String leaseName, String configMapName) {
    return List.of(
        Access.to("list", "", "nodes"),
        Access.to("watch", "", "nodes"),
        Access.to("get", "", "nodes").named("node-1"),
        Access.to("list", "", "pods"),
        Access.to("watch", "", "pods"),
        Access.to("get", "", "pods").in(JOBS),
        Access.to("list", GROUP, "tyjobs"),
        Access.to("watch", GROUP, "tyjobs"),
        Access.to("get", GROUP, "tyjobs").in(JOBS),
        Access.to("get", GROUP, "tyjobs").subresource("status").in(JOBS),
        Access.to("patch", GROUP, "tyjobs").subresource("status").in(JOBS),
        Access.to("list", GROUP, "queues"),
        Access.to("watch", GROUP, "queues"),
        Access.to("get", GROUP, "queues").named("default"),
        Access.to("create", GROUP, "queues"),
        Access.to("get", GROUP, "queues").subresource("status").named("default"),
        Access.to("patch", GROUP, "queues").subresource("status").named("default"),
        Access.to("create", "", "events").in(JOBS),
        Access.to("patch", "", "events").in(JOBS),
        // A Queue's Events: it is cluster-scoped, so they go to the default namespace.
        Access.to("create", "", "events").in("default"),
        Access.to("patch", "", "events").in("default"),
        Access.to("create", "coordination.k8s.io", "leases").in(ownNamespace),
        Access.to("get", "coordination.k8s.io", "leases").in(ownNamespace).named(leaseName),
        Access.to("update", "coordination.k8s.io", "leases").in(ownNamespace).named(leaseName),
        Access.to("get", "", "configmaps").in(ownNamespace).named(configMapName),
        Access.to("list", "", "configmaps").in(ownNamespace),
        Access.to("watch", "", "configmaps").in(ownNamespace),
        // The operator's window: who a token is, and what that user may list.
        Access.to("create", "authentication.k8s.io", "tokenreviews"),
        Access.to("create", "authorization.k8s.io", "subjectaccessreviews"));
  }

  static List<Access> schedulerMustNot(String ownNamespace, String otherLeaseName) {
    return List.of(
        Access.to("create", "", "pods").in(JOBS),
        Access.to("delete", "", "pods").in(JOBS),
        Access.to("patch", "", "pods").in(JOBS),
        Access.to("create", "", "pods").subresource("binding").in(JOBS),
        Access.to("create", GROUP, "tyjobs").in(JOBS),
        Access.to("update", GROUP, "tyjobs").in(JOBS),
        Access.to("patch", GROUP, "tyjobs").in(JOBS),
        Access.to("delete", GROUP, "tyjobs").in(JOBS),
        Access.to("update", GROUP, "tyjobs").subresource("status").in(JOBS),
        Access.to("update", GROUP, "queues").named("default"),
        Access.to("patch", GROUP, "queues").named("default"),
        Access.to("delete", GROUP, "queues").named("default"),
        Access.to("update", GROUP, "queues").subresource("status").named("default"),
        Access.to("patch", "", "nodes").named("node-1"),
        Access.to("delete", "", "nodes").named("node-1"),
        Access.to("get", "", "secrets").in(ownNamespace),
        Access.to("list", "", "secrets"),
        Access.to("get", "", "configmaps").in(JOBS),
        Access.to("update", "", "configmaps").in(ownNamespace),
        Access.to("list", "", "configmaps"),
        Access.to("update", "coordination.k8s.io", "leases").in(ownNamespace).named(otherLeaseName),
        Access.to("create", "coordination.k8s.io", "leases").in(JOBS),
        Access.to("delete", "", "events").in(JOBS),
        Access.to("create", "rbac.authorization.k8s.io", "clusterrolebindings"),
        Access.to("create", "rbac.authorization.k8s.io", "rolebindings").in(ownNamespace),
        // Reviewing tokens is not minting them: no token of any ServiceAccount.
        Access.to("create", "", "serviceaccounts").subresource("token").in(JOBS),
        Access.to("create", "", "serviceaccounts").subresource("token").in(ownNamespace),
        Access.to("impersonate", "", "users"));
  }

  static List<Access> controllerNeeds(String ownNamespace, String leaseName) {
    return List.of(
        Access.to("list", GROUP, "tyjobs"),
        Access.to("watch", GROUP, "tyjobs"),
        Access.to("get", GROUP, "tyjobs").in(JOBS),
        Access.to("get", GROUP, "tyjobs").subresource("status").in(JOBS),
        Access.to("patch", GROUP, "tyjobs").subresource("status").in(JOBS),
        Access.to("update", GROUP, "tyjobs").subresource("finalizers").in(JOBS),
        Access.to("list", "", "pods"),
        Access.to("watch", "", "pods"),
        Access.to("get", "", "pods").in(JOBS),
        Access.to("create", "", "pods").in(JOBS),
        Access.to("delete", "", "pods").in(JOBS),
        Access.to("create", "", "events").in(JOBS),
        Access.to("patch", "", "events").in(JOBS),
        Access.to("list", "", "nodes"),
        Access.to("watch", "", "nodes"),
        Access.to("get", "", "nodes").named("node-1"),
        Access.to("create", "coordination.k8s.io", "leases").in(ownNamespace),
        Access.to("get", "coordination.k8s.io", "leases").in(ownNamespace).named(leaseName),
        Access.to("update", "coordination.k8s.io", "leases").in(ownNamespace).named(leaseName));
  }

  static List<Access> controllerMustNot(String ownNamespace, String otherLeaseName) {
    return List.of(
        Access.to("patch", "", "nodes").named("node-1"),
        Access.to("delete", "", "nodes").named("node-1"),
        Access.to("create", GROUP, "queues"),
        Access.to("list", GROUP, "queues"),
        Access.to("patch", GROUP, "queues").subresource("status").named("default"),
        Access.to("get", "", "secrets").in(ownNamespace),
        Access.to("get", "", "secrets").in(JOBS),
        Access.to("create", GROUP, "tyjobs").in(JOBS),
        Access.to("update", GROUP, "tyjobs").in(JOBS),
        Access.to("patch", GROUP, "tyjobs").in(JOBS),
        Access.to("delete", GROUP, "tyjobs").in(JOBS),
        Access.to("update", "", "pods").in(JOBS),
        Access.to("patch", "", "pods").in(JOBS),
        Access.to("update", GROUP, "tyjobs").subresource("status").in(JOBS),
        Access.to("get", "", "configmaps").in(ownNamespace),
        Access.to("update", "coordination.k8s.io", "leases").in(ownNamespace).named(otherLeaseName),
        Access.to("create", "coordination.k8s.io", "leases").in(JOBS),
        Access.to("create", "rbac.authorization.k8s.io", "rolebindings").in(ownNamespace));
  }
}
