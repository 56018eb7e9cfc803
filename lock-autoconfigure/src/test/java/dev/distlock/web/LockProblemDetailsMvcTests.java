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

package dev.distlock.web;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.StaticMessageSource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.web.context.WebApplicationContext;

import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.autoconfigure.fencing.DistributedLockFencingAutoConfiguration;
import dev.distlock.fencing.FencedRedis;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.web.LockedWebApplication.LockedWork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lock failures as a Spring MVC application answers them, with nothing but distlock's
 * auto-configuration: each failure is real (a lock held in Redis by another instance, a
 * stopped {@code redis-server}, a lease that ran out while another instance took the
 * lock), and each answer is checked whole: status, {@code Content-Type},
 * {@code Retry-After} and the problem details.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockProblemDetailsMvcTests {

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	@BeforeEach
	void redisRuns() {
		REDIS.ensureRunning();
	}

	@Test
	void lockHeldByAnotherInstanceAnswers409WithRetryAfter() {
		LockedWebApplication.servlet(REDIS.server()).run((context) -> {
			try (OtherInstance other = new OtherInstance(REDIS.server(), "");
					LockHandle held = other.lock("web:stock:7")) {
				MvcTestResult result = post(context, "/stock/7");
				assertThat(result).hasStatus(409)
					.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
					.hasHeader(HttpHeaders.RETRY_AFTER, "1");
				assertThat(result).bodyJson()
					.isEqualTo(
							"""
									{
									  "type": "https://distlock.dev/problems/lock-not-acquired",
									  "title": "Lock not acquired",
									  "status": 409,
									  "detail": "The lock this request needs was held by another caller for longer than the request could wait. Retry after 1 second.",
									  "instance": "/stock/7",
									  "lock": "stock"
									}""",
							JsonCompareMode.LENIENT);
				assertThat(result).bodyJson().doesNotHavePath("$.key");
				assertThat(result).bodyJson()
					.extractingPath("$.waitedMillis")
					.asNumber()
					.satisfies((waited) -> assertThat(waited.longValue()).isBetween(100L, 10_000L));
			}
			assertThat(context.getBean(LockedWork.class).runs()).as("runs without the lock").isZero();
		});
	}

	@Test
	void lockFailureWrappedInTheApplicationsOwnExceptionIsLeftToTheApplication() {
		LockedWebApplication.servlet(REDIS.server()).run((context) -> {
			try (OtherInstance other = new OtherInstance(REDIS.server(), "");
					LockHandle held = other.lock("web:stock:8")) {
				MvcTestResult result = post(context, "/orders/8");
				assertThat(result).as("not answered by distlock: the application's exception goes on")
					.hasFailed()
					.failure()
					.cause()
					.isInstanceOf(IllegalStateException.class)
					.hasMessage("Order of 8 failed")
					.hasCauseInstanceOf(LockNotAcquiredException.class);
			}
		});
	}

	@Test
	void retryAfterIsRoundedUpToWholeSeconds() {
		LockedWebApplication.servlet(REDIS.server())
			.withPropertyValues("distlock.web.retry-after=1500ms")
			.run((context) -> {
				try (OtherInstance other = new OtherInstance(REDIS.server(), "");
						LockHandle held = other.lock("web:stock:8")) {
					MvcTestResult result = post(context, "/stock/8");
					assertThat(result).hasStatus(409).hasHeader(HttpHeaders.RETRY_AFTER, "2");
					assertThat(result).bodyJson()
						.extractingPath("$.detail")
						.isEqualTo("The lock this request needs was held by another caller for longer than the "
								+ "request could wait. Retry after 2 seconds.");
				}
			});
	}

	@Test
	void keyIsNamedOnlyWhenAskedFor() {
		LockedWebApplication.servlet(REDIS.server())
			.withPropertyValues("distlock.web.include-key=true", "distlock.key-prefix=app:")
			.run((context) -> {
				try (OtherInstance other = new OtherInstance(REDIS.server(), "app:");
						LockHandle held = other.lock("web:stock:9")) {
					MvcTestResult result = post(context, "/stock/9");
					assertThat(result).hasStatus(409);
					assertThat(result).bodyJson().extractingPath("$.key").isEqualTo("app:web:stock:9");
					assertThat(result).bodyJson().extractingPath("$.lock").isEqualTo("stock");
				}
			});
	}

	@Test
	void outageAnsweredWith503IsLoggedAsAWarningOncePerLockNameAndOutage(CapturedOutput output) {
		String warning = "WARN";
		String answering = "Answering 503 SERVICE_UNAVAILABLE to requests that need lock 'stock': Could not acquire "
				+ "lock 'web:stock:";
		LockedWebApplication.servlet(REDIS.server()).run((context) -> {
			try (OtherInstance other = new OtherInstance(REDIS.server(), "");
					LockHandle held = other.lock("web:stock:20")) {
				assertThat(post(context, "/stock/20")).hasStatus(409);
			}
			assertThat(warnings(output, warning, "Answering 409")).as("warnings of a busy lock").isEmpty();
			REDIS.server().stop();
			assertThat(post(context, "/stock/21")).hasStatus(503);
			assertThat(post(context, "/stock/22")).hasStatus(503);
			assertThat(warnings(output, warning, answering)).as("warnings in the first outage").hasSize(1);
			assertThat(warnings(output, warning, answering).get(0))
				.contains("Redis at " + REDIS.server().host() + ":" + REDIS.server().port() + " is unavailable");
			REDIS.ensureRunning();
			await().atMost(Duration.ofSeconds(20))
				.until(() -> post(context, "/stock/23").getResponse().getStatus() == 200);
			REDIS.server().stop();
			assertThat(post(context, "/stock/24")).hasStatus(503);
			assertThat(warnings(output, warning, answering)).as("warnings after the second outage").hasSize(2);
			REDIS.ensureRunning();
		});
	}

	private static List<String> warnings(CapturedOutput output, String level, String text) {
		return output.getOut().lines().filter((line) -> line.contains(level) && line.contains(text)).toList();
	}

	@Test
	void redisStoppedAnswers503WithRetryAfter() {
		LockedWebApplication.servlet(REDIS.server()).run((context) -> {
			REDIS.server().stop();
			MvcTestResult result = post(context, "/stock/10");
			assertThat(result).hasStatus(503)
				.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
				.hasHeader(HttpHeaders.RETRY_AFTER, "1");
			assertThat(result).bodyJson()
				.isEqualTo(
						"""
								{
								  "type": "https://distlock.dev/problems/lock-unavailable",
								  "title": "Lock service unavailable",
								  "status": 503,
								  "detail": "The lock service (Redis) is unavailable, so this request was not processed. Retry after 1 second.",
								  "instance": "/stock/10",
								  "lock": "stock"
								}""",
						JsonCompareMode.STRICT);
			assertThat(context.getBean(LockedWork.class).runs()).as("runs without the lock").isZero();
			REDIS.ensureRunning();
		});
	}

	@Test
	void redisStoppedBeforeTheReleaseAnswers500WithoutRetryAfter() {
		LockedWebApplication.servlet(REDIS.server()).run((context) -> {
			LockedWork work = context.getBean(LockedWork.class);
			work.during(() -> REDIS.server().stop());
			MvcTestResult result = post(context, "/stock/11");
			assertThat(result).hasStatus(500).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
			assertThat(result).doesNotContainHeader(HttpHeaders.RETRY_AFTER);
			assertThat(result).bodyJson()
				.isEqualTo(
						"""
								{
								  "type": "https://distlock.dev/problems/lock-release-failed",
								  "title": "Lock release failed",
								  "status": 500,
								  "detail": "This request was processed, but the lock service (Redis) became unavailable before its lock was released; the lock expires by itself. Check the outcome before retrying.",
								  "instance": "/stock/11",
								  "lock": "stock"
								}""",
						JsonCompareMode.STRICT);
			assertThat(work.runs()).isEqualTo(1);
			REDIS.ensureRunning();
		});
	}

	@Test
	void leaseLostToAnotherInstanceAnswers500WithoutRetryAfter() {
		LockedWebApplication.servlet(REDIS.server()).run((context) -> {
			try (OtherInstance other = new OtherInstance(REDIS.server(), "")) {
				LockedWork work = context.getBean(LockedWork.class);
				LockHandle[] taken = new LockHandle[1];
				work.during(() -> {
					LockHandle hold = LockContext.current().orElseThrow();
					await().atMost(Duration.ofSeconds(5)).until(hold::isLeaseLost);
					taken[0] = other.lock("web:report:q3");
				});
				MvcTestResult result = post(context, "/reports/q3");
				assertThat(result).hasStatus(500).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
				assertThat(result).doesNotContainHeader(HttpHeaders.RETRY_AFTER);
				assertThat(result).bodyJson()
					.isEqualTo(
							"""
									{
									  "type": "https://distlock.dev/problems/lock-lease-lost",
									  "title": "Lock lease lost",
									  "status": 500,
									  "detail": "This request was processed, but its lock expired before it was released, so its work may have overlapped with another holder's. Check the outcome before retrying.",
									  "instance": "/reports/q3",
									  "lock": "report"
									}""",
							JsonCompareMode.STRICT);
				assertThat(taken[0].isLeaseLost()).as("the other instance's hold, left alone by the release").isFalse();
				taken[0].release();
			}
		});
	}

	@Test
	void fencedWriteRefusedForAStaleTokenAnswers409WithoutRetryAfter() {
		LockedWebApplication.servlet(REDIS.server())
			.withConfiguration(AutoConfigurations.of(DistributedLockFencingAutoConfiguration.class))
			.run((context) -> {
				try (OtherInstance other = new OtherInstance(REDIS.server(), "")) {
					LockedWork work = context.getBean(LockedWork.class);
					FencedRedis fenced = context.getBean(FencedRedis.class);
					work.during(() -> {
						// This request's hold has its token (a lock acquired with SET NX
						// PX is issued it when first asked); a later grant (of another
						// lock of the other instance) writes the data first, with a newer
						// token.
						LockContext.fencingToken();
						LockHandle later = other.lock("web:report:other");
						fenced.under(later).set("web:report:data", "later");
						later.release();
						fenced.set("web:report:data", "stale");
					});
					MvcTestResult result = post(context, "/reports/q3");
					assertThat(result).hasStatus(409).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
					assertThat(result).doesNotContainHeader(HttpHeaders.RETRY_AFTER);
					assertThat(result).bodyJson()
						.isEqualTo(
								"""
										{
										  "type": "https://distlock.dev/problems/stale-fencing-token",
										  "title": "Stale fencing token",
										  "status": 409,
										  "detail": "This request's lock expired while it worked and another holder of the lock has written since, so its write was refused and the newer data kept. Read the current state before retrying.",
										  "instance": "/reports/q3",
										  "lock": "report"
										}""",
								JsonCompareMode.STRICT);
					assertThat(context.getBean(StringRedisTemplate.class).opsForValue().get("web:report:data"))
						.isEqualTo("later");
				}
			});
	}

	@Test
	void springBootProblemDetailsForSpringExceptionsLeaveLockFailuresToDistlock() {
		LockedWebApplication.servlet(REDIS.server())
			.withPropertyValues("spring.mvc.problemdetails.enabled=true")
			.run((context) -> {
				assertThat(context).hasBean("problemDetailsExceptionHandler");
				try (OtherInstance other = new OtherInstance(REDIS.server(), "");
						LockHandle held = other.lock("web:stock:12")) {
					MvcTestResult result = post(context, "/stock/12");
					assertThat(result).hasStatus(409).hasHeader(HttpHeaders.RETRY_AFTER, "1");
					assertThat(result).bodyJson()
						.extractingPath("$.type")
						.isEqualTo(LockProblemTypes.LOCK_NOT_ACQUIRED.toString());
				}
				assertThat(MockMvcTester.from(context).get().uri("/stock/12").exchange()).as("Boot's own answer")
					.hasStatus(405)
					.hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
			});
	}

	@Test
	void messageSourceRewordsTheAnswerInTheRequestsLanguage() {
		LockedWebApplication.servlet(REDIS.server()).withUserConfiguration(Messages.class).run((context) -> {
			try (OtherInstance other = new OtherInstance(REDIS.server(), "");
					LockHandle held = other.lock("web:stock:13")) {
				MvcTestResult result = MockMvcTester.from(context)
					.post()
					.uri("/stock/13")
					.header(HttpHeaders.ACCEPT_LANGUAGE, "de")
					.exchange();
				assertThat(result).hasStatus(409);
				assertThat(result).bodyJson().extractingPath("$.title").isEqualTo("Sperre belegt");
				assertThat(result).bodyJson()
					.extractingPath("$.detail")
					.isEqualTo("Die Sperre stock ist belegt. Bitte in 1 s erneut versuchen.");
			}
		});
	}

	private static MvcTestResult post(WebApplicationContext context, String path) {
		return MockMvcTester.from(context).post().uri(path).exchange();
	}

	@Configuration(proxyBeanMethods = false)
	static class Messages {

		@Bean
		StaticMessageSource messageSource() {
			StaticMessageSource messages = new StaticMessageSource();
			messages.addMessage("problemDetail.title.dev.distlock.LockNotAcquiredException", Locale.GERMAN,
					"Sperre belegt");
			messages.addMessage("problemDetail.dev.distlock.LockNotAcquiredException", Locale.GERMAN,
					"Die Sperre {0} ist belegt. Bitte in {1} s erneut versuchen.");
			return messages;
		}

	}

}
