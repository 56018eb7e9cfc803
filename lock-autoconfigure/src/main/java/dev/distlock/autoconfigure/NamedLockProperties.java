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

package dev.distlock.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockOptions;

/**
 * Settings of the locks of one name, under {@code distlock.locks.<name>}. Each applies
 * where the {@link dev.distlock.DistributedLock @DistributedLock} gives no value, in
 * place of the {@code distlock.*} default; programmatic calls get them from
 * {@link dev.distlock.LockClient#defaultOptions(String)}.
 */
public class NamedLockProperties {

	/**
	 * Lease time that renews the lease automatically while the lock is held, even where
	 * {@code distlock.lease-time} sets a fixed lease: {@code -1}, which binds as minus
	 * one millisecond.
	 */
	public static final Duration AUTO_RENEW = Duration.ofMillis(-1);

	/**
	 * How long a caller waits for this lock while someone else holds it. Zero means a
	 * single attempt. When not set, distlock.wait-time applies.
	 */
	private @Nullable Duration waitTime;

	/**
	 * How long Redis keeps this lock if it is not released, or -1 to renew its lease
	 * automatically while it is held. When not set, distlock.lease-time applies.
	 */
	private @Nullable Duration leaseTime;

	/**
	 * How long this lock is kept at least, counted from its acquisition, even if it is
	 * released earlier. When not set, none.
	 */
	private @Nullable Duration minHoldTime;

	/**
	 * Whether this lock is taken only in code, with LockClient.defaultOptions(name), so
	 * that startup does not ask for a @DistributedLock method of this name.
	 */
	private boolean programmatic;

	public @Nullable Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(@Nullable Duration waitTime) {
		this.waitTime = waitTime;
	}

	public @Nullable Duration getLeaseTime() {
		return this.leaseTime;
	}

	public void setLeaseTime(@Nullable Duration leaseTime) {
		this.leaseTime = leaseTime;
	}

	public @Nullable Duration getMinHoldTime() {
		return this.minHoldTime;
	}

	public void setMinHoldTime(@Nullable Duration minHoldTime) {
		this.minHoldTime = minHoldTime;
	}

	public boolean isProgrammatic() {
		return this.programmatic;
	}

	public void setProgrammatic(boolean programmatic) {
		this.programmatic = programmatic;
	}

	/**
	 * Returns the given options with the values set here in place of theirs.
	 * @param defaults the client's default options
	 * @return the options of this lock, with the name of the defaults
	 */
	public LockOptions applyTo(LockOptions defaults) {
		LockOptions options = defaults;
		if (this.waitTime != null) {
			options = options.withWaitTime(this.waitTime);
		}
		if (this.leaseTime != null) {
			options = options.withLeaseTime(AUTO_RENEW.equals(this.leaseTime) ? null : this.leaseTime);
		}
		if (this.minHoldTime != null) {
			options = options.withMinHoldTime(this.minHoldTime);
		}
		return options;
	}

}
