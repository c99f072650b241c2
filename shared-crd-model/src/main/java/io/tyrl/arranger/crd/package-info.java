/**
 * Where Arranger's custom resources live in the API (group, version, plural of TYJobs and Queues).
 */
package io.tyrl.arranger.crd;
