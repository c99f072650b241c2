/**
 * The operator's window: the web page and its JSON API on the service's own port, behind Kubernetes
 * sign-in (TokenReview) and a SubjectAccessReview for every read. docs/ui.md shows the pages,
 * docs/security.md the rules.
 */
package io.tyrl.arranger.scheduler.web;
