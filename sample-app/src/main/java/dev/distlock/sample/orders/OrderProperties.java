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

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the close-expired-orders job ({@code sample.orders.*}). Its schedule is the
 * cron expression {@code sample.orders.close-cron}, read by {@code @Scheduled} itself,
 * and its lock's lease and minimum hold are {@code sample.orders.close-lease-time} and
 * {@code sample.orders.close-min-hold-time}, read by {@code @DistributedLock}.
 *
 * @param unpaidMaxAge how long an order may stay unpaid before the job closes it
 */
@ConfigurationProperties("sample.orders")
public record OrderProperties(@DefaultValue("15m") Duration unpaidMaxAge) {

}
