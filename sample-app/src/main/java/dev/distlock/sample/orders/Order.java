/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
