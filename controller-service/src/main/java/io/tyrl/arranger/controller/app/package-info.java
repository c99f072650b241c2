/**
 * Spring wiring of the controller service: properties, beans, health.
 *
 * <p>Start at {@code ControllerWiring}; a new setting goes in {@code ControllerProperties}.
 */
package io.tyrl.arranger.controller.app;
