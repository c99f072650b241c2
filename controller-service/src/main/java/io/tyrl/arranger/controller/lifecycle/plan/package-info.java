/**
 * What the stage rules decide and what that turns into: the rules fill a {@link PlanDraft}, {@link
 * StatusProjector} computes the status it leaves, and the draft becomes a {@link Plan} of {@link
 * PlannedAction}s, in the order the adapter must apply them. Start at {@link PlannedAction}, the
 * contract with the adapter. The projector is here rather than in {@code status} because it reads
 * the draft, and the draft carries the status: in {@code status}, the two packages would import
 * each other.
 */
package io.tyrl.arranger.controller.lifecycle.plan;
