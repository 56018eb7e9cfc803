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

package dev.distlock.aop;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.DistributedLock;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Methods returning {@code Mono}, {@code Flux} and {@code CompletableFuture} acquire with
 * the {@link DistributedLock#mode() mode} and {@link DistributedLock#permits() permits}
 * of their annotation, with the rest of the options from the client's defaults. Shown by
 * the options the {@link ReactiveLockClient} is called with: the in-memory store has no
 * reactive client, and the reactive Redis client's handling of shared locks is tested
 * with it.
 */
class SharedLockReactiveOptionsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distlock.store=in-memory")
		.withBean(OptionsRecordingClient.class)
		.withBean(ReactiveCatalogue.class);

	@Test
	void monoFluxAndCompletableFutureMethodsAcquireWithTheirModeAndPermits() {
		this.contextRunner.run((context) -> {
			ReactiveCatalogue catalogue = context.getBean(ReactiveCatalogue.class);
			assertThat(catalogue.read().block(Duration.ofSeconds(10))).isEqualTo("read");
			assertThat(catalogue.limited().collectList().block(Duration.ofSeconds(10))).containsExactly(1, 2);
			assertThat(catalogue.write().join()).isEqualTo("written");
			Map<String, LockOptions> options = context.getBean(OptionsRecordingClient.class).options;
			assertThat(options.get("catalogue:read")).satisfies((read) -> {
				assertThat(read.mode()).isEqualTo(LockMode.READ);
				assertThat(read.permits()).isOne();
				assertThat(read.waitTime()).isEqualTo(Duration.ofSeconds(3));
				assertThat(read.name()).isEqualTo("ReactiveCatalogue.read");
			});
			assertThat(options.get("catalogue:limited")).satisfies((limited) -> {
				assertThat(limited.mode()).isEqualTo(LockMode.EXCLUSIVE);
				assertThat(limited.permits()).isEqualTo(4);
			});
			assertThat(options.get("catalogue:write")).satisfies((write) -> {
				assertThat(write.mode()).isEqualTo(LockMode.WRITE);
				assertThat(write.permits()).isOne();
				assertThat(write.isAutoRenewing()).isTrue();
			});
		});
	}

	static class ReactiveCatalogue {

		@DistributedLock(key = "'catalogue:read'", mode = LockMode.READ)
		public Mono<String> read() {
			return Mono.just("read");
		}

		@DistributedLock(key = "'catalogue:limited'", permits = 4)
		public Flux<Integer> limited() {
			return Flux.just(1, 2);
		}

		@DistributedLock(key = "'catalogue:write'", mode = LockMode.WRITE)
		public CompletableFuture<String> write() {
			return CompletableFuture.completedFuture("written");
		}

	}

	/** Records the options of each key and runs the work; takes no lock. */
	static class OptionsRecordingClient implements ReactiveLockClient {

		final Map<String, LockOptions> options = new ConcurrentHashMap<>();

		@Override
		public LockOptions defaultOptions() {
			return LockOptions.renewing(Duration.ofSeconds(3));
		}

		@Override
		public Mono<ReactiveLockHandle> tryLock(String key, LockOptions options) {
			return Mono.error(new UnsupportedOperationException("not called by locked methods"));
		}

		@Override
		public Mono<ReactiveLockHandle> lock(String key, LockOptions options) {
			return Mono.error(new UnsupportedOperationException("not called by locked methods"));
		}

		@Override
		public <T> Mono<T> withLock(String key, LockOptions options, Mono<T> work) {
			this.options.put(key, options);
			return work;
		}

		@Override
		public <T> Flux<T> withLock(String key, LockOptions options, Flux<T> work) {
			this.options.put(key, options);
			return work;
		}

	}

}
