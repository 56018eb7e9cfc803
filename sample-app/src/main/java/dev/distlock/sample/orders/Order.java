package dev.distlock.sample.orders;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One row of the {@code customer_order} table.
 *
 * @param id the order's identifier
 * @param status where the order is in its life
 * @param createdAt when the order was placed
 * @param closedAt when the job closed it, {@code null} unless closed
 */
public record Order(String id, OrderStatus status, Instant createdAt, @Nullable Instant closedAt) {

}
