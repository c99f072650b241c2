/**
 * The TYJob and Queue types, generated from the CRDs at build time (the sources are in {@code
 * target/generated-sources}; the CRDs in {@code src/main/crds} are the only place a field is
 * declared).
 */
package io.tyrl.arranger.model;
