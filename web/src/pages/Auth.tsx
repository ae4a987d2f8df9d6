import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';

/** The frame of the signed-out screens. */
export function AuthFrame({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="gray.1">
      <Paper component="main" withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <div>
            <Text c="teal.9" fw={700} size="sm">
              Ark
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
            {intro && (
              <Text c="dimmed" size="sm" mt={4}>
                {intro}
              </Text>
            )}
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
