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

package dev.distlock.redis.monitor;

/**
 * A client's subscription to its one release channel, on which releases tell its waiters
 * that they were handed a lock; read live, for the health check.
 */
public interface ReleaseSubscriptionStatus {

	/**
	 * Returns the subscribed channel.
	 * @return the channel name
	 */
	String channel();

	/**
	 * Returns whether the channel is subscribed, so that waiters are handed locks by
	 * releases.
	 * @return whether the subscription is established
	 */
	boolean isSubscribed();

}
