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

/**
 * Pieces that every lock client of distlock shares: the rules of a lock key, the count of
 * a thread's holds of one lock, the handle of a re-entrant hold, and the logging of lock
 * events with the telling of listeners. Internal to distlock's clients: public only
 * because they live in other packages, with no compatibility promise.
 */
@NullMarked
package dev.distlock.support;

import org.jspecify.annotations.NullMarked;
