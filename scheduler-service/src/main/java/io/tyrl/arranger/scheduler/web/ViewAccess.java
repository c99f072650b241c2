package io.tyrl.arranger.scheduler.web;

import io.tyrl.arranger.crd.ArrangerResources;
import java.util.HashMap;
import java.util.Map;

/**
 * The reads of the view, each checked for the signed-in user: jobs only of namespaces where they
 * may {@code list} TYJobs, queues and nodes only with {@code list} on them. One instance per
 * request, so a namespace is asked about once however many of its jobs a page shows.
 */
final class ViewAccess {

  private final KubernetesReviews reviews;
  private final ViewUser user;
  private final Map<String, Boolean> jobNamespaces = new HashMap<>();
  private Boolean everyNamespace;

  ViewAccess(KubernetesReviews reviews, ViewUser user) {
    this.reviews = reviews;
    this.user = user;
  }

  boolean mayListQueues() {
    return reviews.allows(
        user,
        KubernetesReviews.Right.list(ArrangerResources.GROUP, ArrangerResources.QUEUES, null));
  }

  boolean mayListNodes() {
    return reviews.allows(user, KubernetesReviews.Right.list("", "nodes", null));
  }

  /** Whether the user may list TYJobs cluster-wide. */
  boolean maySeeEveryNamespace() {
    if (everyNamespace == null) {
      everyNamespace =
          reviews.allows(
              user,
              KubernetesReviews.Right.list(
                  ArrangerResources.GROUP, ArrangerResources.TYJOBS, null));
    }
    return everyNamespace;
  }

  /** Whether the user may list the TYJobs of the namespace (cluster-wide rights included). */
  boolean maySeeJobsOf(String namespace) {
    return maySeeEveryNamespace()
        || jobNamespaces.computeIfAbsent(
            namespace,
            n ->
                reviews.allows(
                    user,
                    KubernetesReviews.Right.list(
                        ArrangerResources.GROUP, ArrangerResources.TYJOBS, n)));
  }
}
