/**
 * A lister-watcher that decodes pods and nodes straight from the API server's stream, for
 * client-java's informers.
 *
 * <p>Start at {@code ModelListerWatcher}.
 */
package io.tyrl.arranger.kube.informer;
