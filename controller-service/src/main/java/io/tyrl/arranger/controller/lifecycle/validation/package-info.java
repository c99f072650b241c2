/**
 * What a TYJob's spec must satisfy beyond the CRD's schema, checked before any stage rule runs:
 * every problem at once, each naming its field, and never an exception. Start at {@link
 * JobValidator}. It reads only the spec views of {@code observe}.
 */
package io.tyrl.arranger.controller.lifecycle.validation;
