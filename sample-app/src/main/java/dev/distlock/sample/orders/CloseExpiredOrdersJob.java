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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Runs on every instance at every tick of {@code sample.orders.close-cron} (every minute
 * by default; {@code -} disables it) and closes expired unpaid orders through
 * {@link ExpiredOrderCloser}, whose lock lets one instance per tick do the work while the
 * others skip it.
 */
@Component
public class CloseExpiredOrdersJob {

	private static final Logger logger = LoggerFactory.getLogger(CloseExpiredOrdersJob.class);

	private final ExpiredOrderCloser closer;

	CloseExpiredOrdersJob(ExpiredOrderCloser closer) {
		this.closer = closer;
	}

	/**
	 * The scheduled entry point.
	 */
	@Scheduled(cron = "${sample.orders.close-cron:0 * * * * *}")
	public void onTick() {
		runOnce();
	}

	/**
	 * Runs one tick: closes the expired orders, or skips if another instance is doing it
	 * or has just done it.
	 * @return what this instance did
	 */
	public CloseRun runOnce() {
		CloseRun run = this.closer.closeExpired().map(CloseRun::ran).orElseGet(CloseRun::skipped);
		if (!run.ran()) {
			logger.debug("Skipped closing expired orders: the job's lock is held, by an instance running this tick "
					+ "or for the minimum hold time after a run");
		}
		else if (run.closed() > 0) {
			logger.info("Closed {} expired unpaid order(s)", run.closed());
		}
		return run;
	}

}
