/**
 * Topology over one session's nodes: the domains of each configured level ({@code Domains}), the
 * order a gang tries them in and why none takes it ({@code DomainOrder}), and what it needs from a
 * domain ({@code GangDemand}). The actions place pods with it ({@code TopologyPlacement}); nothing
 * here places a pod or changes a ledger.
 */
package io.tyrl.arranger.scheduler.topology;
