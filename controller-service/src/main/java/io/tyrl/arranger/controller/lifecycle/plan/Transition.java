package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;

/** A change of stage decided by a plan, with the reason recorded in conditions and the event. */
record Transition(Stage from, Stage to, String reason, String message, EventType eventType) {}
