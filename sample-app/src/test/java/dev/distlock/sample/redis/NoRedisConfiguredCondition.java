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

package dev.distlock.sample.redis;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when the application configures no Redis of its own, as
 * {@link RedisConfiguredCheck#redisSetting(org.springframework.core.env.PropertyResolver)}
 * decides it: none of the {@code spring.data.redis.*} connection properties is set, and
 * {@code sample.embedded-redis.enabled} is not {@code false}. The check of the
 * application asks the same question when the context starts, so that both agree.
 */
class NoRedisConfiguredCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConditionMessage.Builder message = ConditionMessage.forCondition("No Redis configured");
		String setting = RedisConfiguredCheck.redisSetting(context.getEnvironment());
		if (setting != null) {
			return ConditionOutcome.noMatch(message.found("property").items(setting));
		}
		return ConditionOutcome.match(message
			.because("no spring.data.redis connection property is set and sample.embedded-redis.enabled is not false"));
	}

}
