/**
 * The one way both services read a stored TYJob: {@link io.tyrl.arranger.crd.read.TYJobDecoder}
 * turns the informer's raw JSON into the generated model, or into a refusal naming the path of the
 * first value the model cannot hold ({@code ModelFit} checks the JSON against the model's types
 * first, since Gson would silently wrap or coerce); the bounds checked on the model; Gson to plain
 * values for the status codec.
 *
 * <p>Start at {@code TYJobDecoder}.
 */
package io.tyrl.arranger.crd.read;
